#!/usr/bin/env bash
# Puts Node 24 LTS first on PATH when the machine's own Node is older.
#
#   source scripts/ensure-node.sh   # this shell, and everything it starts, runs on Node 24
#   bash scripts/ensure-node.sh     # prints the folder to put first on PATH
#
# A machine whose Node is already 24 or newer keeps its own. Otherwise the registry's build of Node
# (the `node-linux-<arch>` package, pinned with its integrity hash in scripts/node-runtime) is installed
# once into a cache folder with the machine's npm: no install script runs and nothing else is
# downloaded. npm itself stays the machine's; it runs on whichever `node` comes first on PATH.

ensure_node_main() {
  local required_major=24
  local here runtime_manifest current_major cache_key cache_dir arch bin_dir
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  runtime_manifest="$here/node-runtime"

  current_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$current_major" -ge "$required_major" ]; then
    dirname "$(command -v node)"
    return 0
  fi

  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "ensure-node: no registry build of Node for $(uname -s) $(uname -m); install Node $required_major yourself" >&2
      return 1
      ;;
  esac
  if ! command -v npm >/dev/null 2>&1; then
    echo "ensure-node: Node $required_major is needed and npm is not on PATH to fetch it; install Node $required_major yourself" >&2
    return 1
  fi

  cache_key="$(cat "$runtime_manifest/package.json" "$runtime_manifest/package-lock.json" | sha256sum | cut -c1-16)"
  cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/healthcare-access-api/node/$cache_key"
  bin_dir="$cache_dir/node_modules/node-linux-$arch/bin"
  if [ ! -x "$bin_dir/node" ]; then
    echo "ensure-node: installing Node $required_major from the npm registry into $cache_dir" >&2
    rm -rf "$cache_dir"
    mkdir -p "$cache_dir"
    cp "$runtime_manifest/package.json" "$runtime_manifest/package-lock.json" "$cache_dir/"
    if ! (cd "$cache_dir" && npm ci --no-audit --no-fund --no-update-notifier --ignore-scripts --loglevel=error >&2); then
      rm -rf "$cache_dir"
      echo "ensure-node: could not install Node $required_major from the registry" >&2
      return 1
    fi
  fi
  echo "$bin_dir"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  ensure_node_main
else
  ENSURED_NODE_BIN="$(ensure_node_main)" || return 1
  if [ "$(dirname "$(command -v node)")" != "$ENSURED_NODE_BIN" ]; then
    export PATH="$ENSURED_NODE_BIN:$PATH"
  fi
  hash -r
  unset ENSURED_NODE_BIN
fi
