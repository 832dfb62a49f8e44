#!/usr/bin/env bash
# Compiles CQL to ELM JSON with the reference CQL-to-ELM translator (info.cqframework:cql-to-elm, see
# pom.xml), for scripts/generate-dtr-packages.js. Only generating the sandbox's DTR packages needs it:
# nothing runs it at run time or in tests, which read the committed ELM.
#
#   cql-to-elm.sh --install     installs it when missing (Maven Central only), prints its folder
#   cql-to-elm.sh COMMAND...    runs CqlToElm.java's commands in one JVM (export:…=…, compile:…=…)
#
# The install lives in the cache outside the repository, one folder per version of the pom and the
# source, so a machine that installed it once installs nothing; Maven's own repository (~/.m2) keeps
# the jars. Progress goes to stderr. Needs Java 17 and Maven (the machine's).
set -euo pipefail
cd "$(dirname "$0")/../.."

SOURCES=(scripts/cql-to-elm/pom.xml scripts/cql-to-elm/CqlToElm.java)
KEY="$(cat "${SOURCES[@]}" | sha256sum | cut -c1-16)"
HOME_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/healthcare-access-api/cql-to-elm/$KEY"

install() {
  command -v mvn >/dev/null && command -v javac >/dev/null ||
    { echo "cql-to-elm: Java 17 (javac) and Maven (mvn) are needed" >&2; exit 1; }
  echo "Installing the CQL-to-ELM translator from Maven Central into $HOME_DIR..." >&2
  rm -rf "$HOME_DIR"
  mkdir -p "$HOME_DIR"
  mvn -q -B -f scripts/cql-to-elm/pom.xml dependency:copy-dependencies \
    -DoutputDirectory="$HOME_DIR/lib" -DincludeScope=runtime >&2
  javac -nowarn -encoding UTF-8 -d "$HOME_DIR/classes" -cp "$HOME_DIR/lib/*" scripts/cql-to-elm/CqlToElm.java 2>&1 |
    grep -v '^Note:' >&2 || true
  test -f "$HOME_DIR/classes/CqlToElm.class"
  # Written last, so an interrupted install is redone rather than trusted.
  touch "$HOME_DIR/.complete"
}

case "${1:-}" in
  --install)
    [ -f "$HOME_DIR/.complete" ] || install
    echo "$HOME_DIR"
    ;;
  "" | -*)
    sed -n '2,8p' "$0" >&2
    exit 2
    ;;
  *)
    [ -f "$HOME_DIR/.complete" ] || install
    exec java -cp "$HOME_DIR/classes:$HOME_DIR/lib/*" CqlToElm "$@"
    ;;
esac
