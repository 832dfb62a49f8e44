#!/usr/bin/env python3
"""Validates FHIR JSON Bundles against base FHIR with fhir.resources, an independent validator.

    fhir-validate.py FILE...

Prints each file's findings and exits 1 when any file fails, 0 when every file passes.

fhir.resources (PyPI, BSD) generates a pydantic model per resource from the FHIR specification's
StructureDefinitions: it checks every element's name, type and cardinality, required elements,
primitive formats (dates, codes, ids, uris) and the required value sets of status-like codes, down
into each Bundle entry's resource. Its R4B models are the ones used: FHIR R4B is R4 with technical
corrections and changes only in resources this service never sends (medication definition,
subscriptions), so a Bundle that R4B's Claim, ClaimResponse, Patient, Coverage, Organization,
Practitioner, PractitionerRole, MedicationRequest, DocumentReference, QuestionnaireResponse and
CommunicationRequest accept is one R4 accepts. Profiles (Da Vinci PAS, US Core) are not checked:
their packages cannot be fetched here; test/connectors/pas-request-bundle.test.ts asserts what PAS requires.
Unknown elements are refused, as a FHIR server would.
"""
import json
import sys

from fhir.resources.R4B.bundle import Bundle
from pydantic import ValidationError


def findings(path):
    with open(path, encoding="utf-8") as f:
        try:
            document = json.load(f)
        except json.JSONDecodeError as error:
            return [f"not JSON: {error.msg} at line {error.lineno}"]
    if not isinstance(document, dict) or document.get("resourceType") != "Bundle":
        return ["not a Bundle"]
    try:
        Bundle.model_validate(document)
    except ValidationError as error:
        return [f"{'.'.join(str(step) for step in issue['loc'])}: {issue['msg']}" for issue in error.errors()]
    return []


def main(paths):
    failed = False
    for path in paths:
        problems = findings(path)
        if problems:
            failed = True
            print(f"{path}: {len(problems)} error(s)")
            for problem in problems:
                print(f"  {problem}")
        else:
            print(f"{path}: valid FHIR R4(B) Bundle")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    sys.exit(main(sys.argv[1:]))
