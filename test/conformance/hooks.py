"""Schemathesis hooks for the conformance run (scripts/conformance.sh).

They teach the generator the API's own string formats, named in the OpenAPI document, so that
requests valid by the document are valid for the service too: NPIs with their check digit,
ICD-10-CM codes, support program ids from catalog/, and the date forms the validators accept.
Where a rule spans fields, positive cases that break it are dropped; negative cases are kept, so
refusals are still checked. Each such rule is listed in docs/architecture.md ("Rules the API
document cannot state"); nothing else is filtered.
"""

import datetime as dt
import json
import re
from pathlib import Path

import schemathesis
from hypothesis import strategies as st

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
ICD10_CM = re.compile(r"^[A-Z][0-9][A-Z0-9](?:\.[A-Z0-9]{1,4})?$")
MAX_DOCUMENTS_PER_REQUEST = 20
TODAY = dt.date.today()


def _npi_check_digit(first_nine: str) -> str:
    """CMS: Luhn over "80840" and the first nine digits."""
    digits = [int(d) for d in "80840" + first_nine]
    total = 0
    for position, digit in enumerate(reversed(digits)):
        if position % 2 == 0:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return str((10 - total % 10) % 10)


def _catalog_strings(pattern: re.Pattern) -> list[str]:
    found: set[str] = set()

    def walk(value):
        if isinstance(value, str) and pattern.match(value):
            found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for path in CATALOG.rglob("*.json"):
        walk(json.loads(path.read_text()))
    return sorted(found)


def _date_time(zone: st.SearchStrategy) -> st.SearchStrategy:
    return st.builds(
        lambda moment, fraction, suffix: moment.strftime("%Y-%m-%dT%H:%M:%S") + fraction + suffix,
        st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2100, 12, 31)),
        st.sampled_from(["", ".5", ".123", ".123456789"]),
        zone,
    )


ZONES = st.sampled_from(["Z", "+00:00", "-05:00", "+05:30", "+14:00"])

schemathesis.openapi.format(
    "npi",
    st.from_regex(r"\A[0-9]{9}\Z").map(lambda nine: nine + _npi_check_digit(nine)),
)
schemathesis.openapi.format(
    "icd10-cm",
    st.sampled_from(_catalog_strings(ICD10_CM)) | st.from_regex(ICD10_CM.pattern.replace("$", r"\Z")),
)
schemathesis.openapi.format(
    "support-program-id",
    st.sampled_from([program["id"] for program in json.loads((CATALOG / "programs.json").read_text())["programs"]]),
)
schemathesis.openapi.format(
    "past-date",
    st.dates(min_value=dt.date(1900, 1, 1), max_value=TODAY).map(dt.date.isoformat),
)
schemathesis.openapi.format("date-time", _date_time(ZONES))
schemathesis.openapi.format(
    "past-date-time",
    st.builds(
        lambda moment, zone: moment.strftime("%Y-%m-%dT%H:%M:%S") + zone,
        st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime.combine(TODAY, dt.time())),
        st.sampled_from(["Z", "+00:00", "-05:00"]),
    ),
)
schemathesis.openapi.format("date-time-zone-optional", _date_time(ZONES | st.just("")))
schemathesis.openapi.format(
    "date-or-date-time",
    st.dates().map(dt.date.isoformat) | _date_time(ZONES),
)


def _formulary_csv(rows) -> str:
    header = "ndc,drug_name,coverage,tier,prior_authorization_required,copay_cents"
    lines = [
        f"{ndc:011d},Drug {index},{coverage},{tier},{pa},{copay}"
        for index, (ndc, coverage, tier, pa, copay) in enumerate(rows)
    ]
    return "\r\n".join([header, *lines]) + "\r\n"


# PUT /formularies/{payer_id}: a valid formulary file (docs/formularies.md), one row per distinct NDC.
schemathesis.openapi.media_type(
    "text/csv",
    st.lists(
        st.tuples(
            st.integers(min_value=0, max_value=99_999_999_999),
            st.sampled_from(["covered", "not_covered"]),
            st.integers(min_value=1, max_value=20),
            st.sampled_from(["yes", "no"]),
            st.integers(min_value=0, max_value=10_000_000),
        ),
        min_size=1,
        max_size=20,
        unique_by=lambda row: row[0],
    ).map(_formulary_csv),
)


def _not_before(later, earlier) -> bool:
    if not isinstance(later, str) or not isinstance(earlier, str):
        return True
    try:
        return dt.datetime.fromisoformat(_aware(later)) >= dt.datetime.fromisoformat(_aware(earlier))
    except ValueError:
        return True


def _aware(text: str) -> str:
    text = text.replace("Z", "+00:00")
    if "T" not in text:
        text += "T00:00:00"
    return text if re.search(r"[+-][0-9]{2}:[0-9]{2}$", text) else text + "+00:00"


AUTHORIZATION_REQUIRED = {
    program["id"]: program["patient_authorization_required"]
    for program in json.loads((CATALOG / "programs.json").read_text())["programs"]
}


def _authorized_as_required(body) -> bool:
    required = AUTHORIZATION_REQUIRED.get(body.get("programId"))
    authorization = body.get("patient_authorization")
    return required is None or (isinstance(authorization, dict) and authorization.get("type") == required)


def _documents(body) -> int:
    if not isinstance(body, dict):
        return 0
    patient = body.get("patient") if isinstance(body.get("patient"), dict) else {}
    lists = [patient.get("insurance"), body.get("insurance")]
    evidence = body.get("evidence") if isinstance(body.get("evidence"), list) else []
    assets = [item for item in evidence if isinstance(item, dict) and isinstance(item.get("asset"), dict)]
    return sum(len(items) for items in lists if isinstance(items, list)) + len(assets)


@schemathesis.hook
def filter_case(context, case) -> bool:
    """Drop positive cases that break a rule the document can state only in prose."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return True
    query = case.query or {}
    body = case.body if isinstance(case.body, dict) else {}
    coverage_dates = body.get("coverage_dates") if isinstance(body.get("coverage_dates"), dict) else {}
    return (
        _not_before(query.get("created_before"), query.get("created_after"))
        and _not_before(query.get("to"), query.get("from"))
        and _not_before(body.get("authorization_expiration"), body.get("authorization_start_date"))
        and _not_before(coverage_dates.get("end_date"), coverage_dates.get("start_date"))
        and _documents(body) <= MAX_DOCUMENTS_PER_REQUEST
        # A program that needs the patient's authorization refuses an enrollment without its type.
        and _authorized_as_required(body)
        # The seeded enrollment is in a copay program, whose enrollment needs the card's member id.
        and not (body.get("result") == "enrolled" and "member_id" not in body)
        # A partial approval names the quantity the payer approved.
        and not (body.get("result") == "partially_approved" and "approved_quantity" not in body)
        and (_operation(context) != ("GET", "/providers/lookup") or _one_lookup_form(query))
    )


# The sandbox registry's active prescriber the document's examples name
# (infrastructure/providers/sandbox-registry.json): a provider authorization names a prescriber as the
# registry knows them, which no schema can state. One prescriber, so that every mix of generated and
# example values stays one person.
SANDBOX_PRESCRIBER = {"npi": "1234567893", "first_name": "Amadou", "last_name": "Reviewsworth"}


def _operation(context) -> tuple[str, str] | None:
    operation = getattr(context, "operation", None)
    return (operation.method.upper(), operation.path) if operation is not None else None


def _positive(case) -> bool:
    """A case meant to be accepted: generated as positive, or taken from the document's examples."""
    return case.meta is None or case.meta.generation.mode.is_positive


@schemathesis.hook
def map_case(context, case):
    """
    Cases meant to be accepted keep to rules that span a request's fields, where the document's own
    examples would combine them: a provider authorization names a prescriber the (sandbox) registry
    knows by that name, and a lookup asks one way.
    """
    if not _positive(case):
        return case
    operation = _operation(context)
    if operation == ("POST", "/provider-authorizations") and isinstance(case.body, dict):
        case.body = {**case.body, **SANDBOX_PRESCRIBER}
    if operation == ("GET", "/providers/lookup") and case.query and "npi" in case.query:
        case.query = {"npi": case.query["npi"]}
    return case


def _one_lookup_form(query) -> bool:
    """`GET /providers/lookup` takes an NPI, or a last name with a state: exactly one of the two."""
    by_npi = "npi" in query
    by_name = "last_name" in query or "state" in query
    return by_npi != by_name and (by_npi or ("last_name" in query and "state" in query))
