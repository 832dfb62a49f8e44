#!/usr/bin/env bash
# Runs schemathesis with every check against the service in local mode: the OpenAPI document at
# /openapi.json must describe exactly what the service answers. Builds nothing: run `npm run build`
# first. Needs the Temporal CLI (TEMPORAL_CLI_PATH or scripts/ensure-temporal.js) and Python 3.
#
#   SCHEMATHESIS_MAX_EXAMPLES  generated cases per operation and phase (default 20)
#   SCHEMATHESIS_SEED          seed of the generator (default a fresh one each run, printed: set it to
#                              replay a run that failed)
#   CONFORMANCE_VENV           virtualenv holding schemathesis (default: scripts/ensure-python-tools.sh's)
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${CONFORMANCE_VENV:-$(bash scripts/ensure-python-tools.sh)}"
MAX_EXAMPLES="${SCHEMATHESIS_MAX_EXAMPLES:-20}"
# A fixed seed would only ever re-check the same cases; each run draws its own and says which.
SEED="${SCHEMATHESIS_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}"
echo "== schemathesis seed $SEED (SCHEMATHESIS_SEED=$SEED replays this run)"

# Below the OS's range for outgoing connections, so the service's own connections cannot take it
# before it listens (infrastructure/temporal/dev-server.ts, freePort).
free_port() {
  node -e 'require("./dist/infrastructure/temporal/dev-server").freePort().then((port) => console.log(port))'
}

DATA_DIR="$(mktemp -d -t conformance-XXXXXX)"
API_KEY="hak_conformance_$(node -e 'console.log(require("crypto").randomBytes(16).toString("hex"))')"
PORT="$(free_port)"
SERVICE_LOG="$DATA_DIR/service.log"
export PORT DATA_DIR
export TEMPORAL_DEV_PORT="$(free_port)" TEMPORAL_UI_PORT="$(free_port)"
export DEV_API_KEY="$API_KEY" LOG_LEVEL=warn
# The run sends thousands of requests from one key, and must see the codec as the outside world does.
export RATE_LIMIT_PER_SECOND=100000 RATE_LIMIT_BURST=100000 CODEC_TRUST_LOOPBACK=false
export KEYLESS_RATE_LIMIT_PER_SECOND=100000 KEYLESS_RATE_LIMIT_BURST=100000

setsid node dist/src/main.local.js >"$SERVICE_LOG" 2>&1 &
SERVICE_PID=$!
stop_service() {
  kill -TERM -- "-$SERVICE_PID" 2>/dev/null || true
  wait "$SERVICE_PID" 2>/dev/null || true
  rm -rf "$DATA_DIR"
}
trap stop_service EXIT

BASE_URL="http://127.0.0.1:$PORT"
for _ in $(seq 1 120); do
  if curl -fsS -o /dev/null -H "Authorization: Bearer $API_KEY" "$BASE_URL/status" 2>/dev/null; then break; fi
  if ! kill -0 "$SERVICE_PID" 2>/dev/null; then
    echo "The service exited before it was ready:" >&2
    cat "$SERVICE_LOG" >&2
    exit 1
  fi
  sleep 1
done
curl -fsS -o /dev/null -H "Authorization: Bearer $API_KEY" "$BASE_URL/status"
eval "$(node scripts/conformance-seed.js "$BASE_URL" "$API_KEY")"

SCHEMATHESIS_HOOKS=test/conformance/hooks.py "$VENV/bin/schemathesis" \
  --config-file test/conformance/schemathesis.toml \
  run "$BASE_URL/openapi.json" \
  --header "Authorization: Bearer $API_KEY" \
  --checks all \
  --max-examples "$MAX_EXAMPLES" \
  --workers 1 \
  --seed "$SEED" \
  --suppress-health-check all \
  "$@"
