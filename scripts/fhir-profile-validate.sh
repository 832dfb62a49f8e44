#!/usr/bin/env bash
# Validates FHIR R4 JSON files against base FHIR and the Da Vinci CRD 2.0.1, DTR 2.0.1 and PAS 2.0.1
# profiles they claim, offline, with the HL7 FHIR validator's instance validator as HAPI FHIR runs it
# (scripts/fhir-profile-validator/; docs/crd.md, docs/dtr.md and docs/pas.md, "Profile validation").
#
#   fhir-profile-validate.sh --install   installs it when missing (Maven Central only), prints its folder
#   fhir-profile-validate.sh --path      prints its folder, installed or not ("$folder/.complete" once installed)
#   fhir-profile-validate.sh FILE...     validates the files in one run; prints a JSON report of every issue
#                                        (exit 0 once it ran, 3 when not installed)
#
# The install lives in the cache outside the repository, one folder per version of the validator's pom,
# its source and the IG packages, so a machine that installed it once installs nothing; Maven's own
# repository (~/.m2) keeps the jars. Progress goes to stderr. Needs Java 17 and Maven (the machine's).
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCES=(scripts/fhir-profile-validator/pom.xml scripts/fhir-profile-validator/FhirProfileValidator.java)
# The IG packages, as the Inferno test kits ship them (test/fixtures/crd/README.md,
# test/fixtures/dtr/inferno/README.md, test/fixtures/pas/README.md): no package registry reached here
# serves them. DTR's profiles name CRD's (qr-context, intendedUse), so they are loaded together, and
# PAS beside them; their other dependencies (US Core, SDC...) are on no registry reached here either.
IG_PACKAGES=(
  test/fixtures/crd/igs/davinci-crd-2.0.1.tgz
  test/fixtures/dtr/inferno/davinci_dtr_2.0.1.tgz
  test/fixtures/pas/igs/davinci_pas_2.0.1.tgz
)
IG_SHA256=(
  fa7811919b19ca34ef7483f03a7ea26100a6044db87ae9a0606d2e414f56ff93
  a2840c31da3277d7b78c74baf65bcbeee97ddfe4f956810bffd79d9cfe5c64f0
  1ba4159f2a1ea000dfb1685601bfc902c603a1c59ce2127118ee0a7aec694218
)
KEY="$(cat "${SOURCES[@]}" "${IG_PACKAGES[@]}" | sha256sum | cut -c1-16)"
HOME_DIR="${XDG_CACHE_HOME:-$HOME/.cache}/healthcare-access-api/fhir-profile-validator/$KEY"

install() {
  for i in "${!IG_PACKAGES[@]}"; do
    echo "${IG_SHA256[$i]}  ${IG_PACKAGES[$i]}" | sha256sum --check --quiet >&2
  done
  command -v mvn >/dev/null && command -v javac >/dev/null ||
    { echo "fhir-profile-validate: Java 17 (javac) and Maven (mvn) are needed" >&2; exit 1; }
  echo "Installing the FHIR profile validator from Maven Central into $HOME_DIR..." >&2
  rm -rf "$HOME_DIR"
  mkdir -p "$HOME_DIR"
  mvn -q -B -f scripts/fhir-profile-validator/pom.xml dependency:copy-dependencies \
    -DoutputDirectory="$HOME_DIR/lib" -DincludeScope=runtime >&2
  javac -nowarn -encoding UTF-8 -d "$HOME_DIR/classes" -cp "$HOME_DIR/lib/*" \
    scripts/fhir-profile-validator/FhirProfileValidator.java 2>&1 | grep -v '^Note:' >&2 || true
  test -f "$HOME_DIR/classes/FhirProfileValidator.class"
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
      echo "fhir-profile-validate: not installed (run scripts/fhir-profile-validate.sh --install)" >&2
      exit 3
    fi
    packages="$(printf '%s,' "$HOME_DIR"/igs/*.tgz)"
    # One JVM for every file: loading FHIR's definitions and the IGs takes most of the run. A run is
    # seconds long, so C2's optimising compiles never pay back: C1 alone took the three profile suites
    # from 59.5 to 37.7 s of CPU, their reports the same.
    exec java -Xss4m -XX:TieredStopAtLevel=1 -cp "$HOME_DIR/classes:$HOME_DIR/lib/*" FhirProfileValidator "${packages%,}" "$@"
    ;;
esac
