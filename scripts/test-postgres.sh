#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server from Debian's packages (installing them when missing) and
# exports TEST_DATABASE_URL. Source it; it stops the server when the sourcing shell exits.
set -euo pipefail

pg_bin_dir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

if [ -z "$(pg_bin_dir)" ]; then
  echo "== installing PostgreSQL from Debian's packages"
  if [ "$(id -u)" -ne 0 ]; then
    echo "PostgreSQL is not installed and this user cannot apt-get install it; install the 'postgresql' package." >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
PG_BIN="$(pg_bin_dir)"

# PostgreSQL refuses to run as root; use its own system user then.
as_pg_user() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

PG_DIR="$(mktemp -d -t haa-postgres-XXXXXX)"
[ "$(id -u)" -eq 0 ] && chown postgres "$PG_DIR"
PG_PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
as_pg_user "$PG_BIN/initdb" -D "$PG_DIR/data" -U app --auth=trust >/dev/null
as_pg_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
  -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
stop_test_postgres() {
  as_pg_user "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
trap stop_test_postgres EXIT
export TEST_DATABASE_URL="postgres://app@127.0.0.1:$PG_PORT/postgres"
echo "== PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') for tests on 127.0.0.1:$PG_PORT"
