#!/usr/bin/env bash
# Finds Chromium for the browser tests, installing Debian's package when it is missing, and exports
# CHROMIUM_PATH and REQUIRE_BROWSER (so a missing browser fails the run instead of skipping). Source it.
set -euo pipefail

if ! command -v chromium >/dev/null 2>&1; then
  echo "== installing Chromium from Debian's packages"
  if [ "$(id -u)" -ne 0 ]; then
    echo "Chromium is not installed and this user cannot apt-get install it; install the 'chromium' package." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
CHROMIUM_PATH="$(command -v chromium)"
export CHROMIUM_PATH REQUIRE_BROWSER=1
echo "== $("$CHROMIUM_PATH" --version 2>/dev/null | head -n 1) for browser tests"
