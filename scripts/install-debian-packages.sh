#!/usr/bin/env bash
# Installs what the tests run from Debian's packages and the machine lacks (PostgreSQL, Chromium, and
# the fonts the document tests print their cards and notes in), with one package-list update for all. scripts/test-postgres.sh and scripts/test-chromium.sh then
# find them; each still installs its own when run alone.
set -euo pipefail

missing=()
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ -d /usr/share/fonts/truetype/liberation ] || missing+=(fonts-liberation)
if [ "${#missing[@]}" -eq 0 ]; then exit 0; fi
if [ "$(id -u)" -ne 0 ]; then
  echo "Missing ${missing[*]}, and this user cannot apt-get install them; install those Debian packages." >&2
  exit 1
fi
echo "Installing ${missing[*]} from Debian's packages..." >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
