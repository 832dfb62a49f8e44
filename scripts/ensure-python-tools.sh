#!/usr/bin/env bash
# Prints the path of a virtual environment holding scripts/python-tools.txt (or the list named by
# PYTHON_TOOLS_LIST, such as the bench's bench/pillow/requirements.txt), creating it when missing.
# It lives in the cache outside the repository (one per version of that list), so a fresh clone on a
# machine that ran CI before installs nothing; progress goes to stderr. With --path it only prints
# where that environment is (or would be), installing nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

REQUIREMENTS="${PYTHON_TOOLS_LIST:-scripts/python-tools.txt}"
LIST_HASH="$(sha256sum "$REQUIREMENTS" | cut -c1-16)"
VENV="${XDG_CACHE_HOME:-$HOME/.cache}/healthcare-access-api/python-tools/$LIST_HASH"

if [ "${1:-}" = "--path" ]; then
  echo "$VENV"
  exit 0
fi
if [ ! -f "$VENV/.complete" ]; then
  echo "Installing the Python tools from PyPI into $VENV..." >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQUIREMENTS" >&2
  # Written last, so an interrupted install is redone rather than trusted.
  touch "$VENV/.complete"
fi
echo "$VENV"
