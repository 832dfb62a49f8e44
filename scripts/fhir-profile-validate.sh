#!/usr/bin/env bash
# Validates FHIR R4 JSON files against base FHIR and the Da Vinci CRD 2.0.1 profiles they claim, offline,
# with the HL7 FHIR validator's instance validator as HAPI FHIR runs it (scripts/crd-validator/,
# docs/crd.md "Profile validation").
#
#   crd-validate.sh --install   installs it when missing (Maven Central only), prints its folder
#   crd-validate.sh --path      prints its folder, installed or not ("$folder/.complete" once installed)
#   crd-validate.sh FILE...     validates the files in one run; prints a JSON report of every issue
#                               (exit 0 once it ran, 3 when not installed)
#
# The install lives in the cache outside the repository, one folder per version of the validator's pom,
# its source and the IG package, so a machine that installed it once installs nothing; Maven's own
# repository (~/.m2) keeps the jars. Progress goes to stderr. Needs Java 17 and Maven (the machine's).
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCES=(scripts/crd-validator/pom.xml scripts/crd-validator/CrdValidator.java)
# The CRD 2.0.1 IG package, as the Inferno CRD test kit ships it (test/fixtures/crd/README.md).
IG_PACKAGES=(test/fixtures/crd/igs/davinci-crd-2.0.1.tgz)
IG_SHA256=(fa7811919b19ca34ef7483f03a7ea26100a6044db87ae9a0606d2e414f56ff93)
KEY="$(cat "${SOURCES[@]}" "${IG_PACKAGES[@]}" | sha256sum | cut -c1-16)"
HOME_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/healthcare-access-api/crd-validator/$KEY"

install() {
  for i in "${!IG_PACKAGES[@]}"; do
    echo "${IG_SHA256[$i]}  ${IG_PACKAGES[$i]}" | sha256sum --check --quiet >&2
  done
  command -v mvn >/dev/null && command -v javac >/dev/null ||
    { echo "crd-validate: Java 17 (javac) and Maven (mvn) are needed" >&2; exit 1; }
  echo "Installing the FHIR profile validator from Maven Central into $HOME_DIR..." >&2
  rm -rf "$HOME_DIR"
  mkdir -p "$HOME_DIR"
  mvn -q -B -f scripts/crd-validator/pom.xml dependency:copy-dependencies \
    -DoutputDirectory="$HOME_DIR/lib" -DincludeScope=runtime >&2
  javac -nowarn -encoding UTF-8 -d "$HOME_DIR/classes" -cp "$HOME_DIR/lib/*" scripts/crd-validator/CrdValidator.java 2>&1 |
    grep -v '^Note:' >&2 || true
  test -f "$HOME_DIR/classes/CrdValidator.class"
  mkdir -p "$HOME_DIR/igs"
  cp "${IG_PACKAGES[@]}" "$HOME_DIR/igs/"
  # Written last, so an interrupted install is redone rather than trusted.
  touch "$HOME_DIR/.complete"
}

case "${1:-}" in
  --path)
    echo "$HOME_DIR"
    ;;
  --install)
    [ -f "$HOME_DIR/.complete" ] || install
    echo "$HOME_DIR"
    ;;
  "" | -*)
    sed -n '2,10p' "$0" >&2
    exit 2
    ;;
  *)
    if [ ! -f "$HOME_DIR/.complete" ]; then
      echo "crd-validate: not installed (run scripts/crd-validate.sh --install)" >&2
      exit 3
    fi
    packages="$(printf '%s,' "$HOME_DIR"/igs/*.tgz)"
    # One JVM for every file: loading FHIR's definitions and the IG takes most of the run.
    exec java -Xss4m -cp "$HOME_DIR/classes:$HOME_DIR/lib/*" CrdValidator "${packages%,}" "$@"
    ;;
esac
