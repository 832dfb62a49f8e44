import { hookInstanceOf, orderSignRequest } from '../../infrastructure/connectors/crd/order-sign-request';
import type { CoverageRequirementsQuery } from '../../domain/payers/coverage-requirements';
import { crdQuery, crdQueryFor } from '../fixtures/crd/crd-fixtures';
import { REGISTRY_MATCH } from '../fixtures/prescriber-registry-match';
import {
  describeWithValidator as describeValidated,
  errorsIn,
  issuesIn,
  validate,
  type Json,
  type Report,
} from '../support/fhir-profile-validator';

/**
 * Every FHIR resource our CRD client sends in its `order-sign` request (the draft MedicationRequest,
 * the Patient, the Coverage and the prescriber, and the two Bundles that carry them) checked against
 * base FHIR R4 and the Da Vinci CRD 2.0.1 profiles they claim, by the HL7 FHIR validator's instance
 * validator, offline (scripts/fhir-profile-validate.sh, docs/crd.md "Profile validation"). One validator run
 * for every file: it spends most of its time loading FHIR's definitions.
 *
 * Skipped when the validator is not installed (`scripts/fhir-profile-validate.sh --install`), except in
 * CI, where .ci/run installs it and a missing validator fails the test.
 */
const describeWithValidator = describeValidated('crd-profiles.test.ts');

const SIGNED_AT = new Date('2026-11-25T12:00:00.000Z');

/**
 * The synthetic queries: a medical-benefit infusion (HCPCS and NDC), the same whose prescriber the NPI
 * registry matched (the Practitioner at the registry's practice address), and two pharmacy drugs (NDC).
 */
const QUERIES = {
  'remicade-medical': crdQuery(),
  'remicade-registry-matched': crdQuery({ prescriber: REGISTRY_MATCH }),
  'ozempic-pharmacy': crdQueryFor({ drug_name: 'Ozempic 1 mg pen', quantity: 1 }),
  'humira-pharmacy': crdQueryFor(
    {
      drug_name: 'Humira',
      strength: '40 mg/0.4 mL',
      ndc: '0074-0554-02',
      quantity: 2,
      days_supply: 28,
      directions: 'Inject 40 mg under the skin every 14 days',
    },
    { diagnoses: [] },
  ),
};

const requestOf = (query: CoverageRequirementsQuery): Json =>
  JSON.parse(JSON.stringify(orderSignRequest(query, hookInstanceOf(query.caseId), SIGNED_AT))) as Json;

/** The FHIR documents of one order-sign request, each as its own file. */
function resourcesOf(name: string, request: Json): Record<string, Json> {
  const draftOrders = request.context.draftOrders as Json;
  const coverageBundle = request.prefetch.coverage as Json;
  return {
    [`${name}.draftOrders.json`]: draftOrders,
    [`${name}.MedicationRequest.json`]: draftOrders.entry[0].resource,
    [`${name}.prefetch.patient.json`]: request.prefetch.patient,
    [`${name}.prefetch.coverage.json`]: coverageBundle,
    [`${name}.Coverage.json`]: coverageBundle.entry[0].resource,
    [`${name}.prefetch.user.json`]: request.prefetch.user,
  };
}

const SENT = Object.assign(
  {},
  ...Object.entries(QUERIES).map(([name, query]) => resourcesOf(name, requestOf(query))),
) as Record<string, Json>;

/** Documents the validator must fault, to show it checks the profiles (same run, so no second start). */
function brokenDocuments(): Record<string, Json> {
  const request = requestOf(crdQuery());
  const patient = { ...(request.prefetch.patient as Json) };
  delete patient.name; // US Core, so CRD: a Patient has a name (1..*)
  return {
    'broken.patient-without-name.json': patient,
    'broken.unknown-profile.json': {
      ...request.prefetch.user,
      meta: { profile: ['http://hl7.org/fhir/us/davinci-crd/StructureDefinition/profile-nonexistent'] },
    },
    'no-plan.Coverage.json': requestOf(crdQuery({ plan: null })).prefetch.coverage.entry[0].resource,
  };
}

describeWithValidator('the CRD order-sign resources, against the Da Vinci CRD 2.0.1 profiles', () => {
  let report: Report;
  const broken = brokenDocuments();

  beforeAll(() => {
    report = validate({ ...SENT, ...broken });
  }, 180_000);

  it('ran against the CRD 2.0.1 package (DTR and PAS 2.0.1 beside it), on every document', () => {
    expect(report.packages).toEqual([
      expect.stringMatching(/^hl7\.fhir\.us\.davinci-crd#2\.0\.1 /),
      expect.stringMatching(/^hl7\.fhir\.us\.davinci-dtr#2\.0\.1 /),
      expect.stringMatching(/^hl7\.fhir\.us\.davinci-pas#2\.0\.1 /),
    ]);
    expect(report.files.map((file) => file.file).sort()).toEqual(Object.keys({ ...SENT, ...broken }).sort());
  });

  it('claims a CRD profile on each resource', () => {
    for (const [name, document] of Object.entries(SENT)) {
      if (document.resourceType === 'Bundle') continue;
      expect([name, document.meta?.profile?.[0]]).toEqual([
        name,
        expect.stringMatching(/^http:\/\/hl7\.org\/fhir\/us\/davinci-crd\/StructureDefinition\/profile-/),
      ]);
    }
  });

  it("gives the matched prescriber the registry's practice address", () => {
    expect(SENT['remicade-registry-matched.prefetch.user.json']!.address).toEqual([
      expect.objectContaining({ line: ['1 Registry Way'], city: 'Springfield' }),
    ]);
    expect(SENT['remicade-medical.prefetch.user.json']).not.toHaveProperty('address');
  });

  it('finds no error or fatal issue in what we send, for a medical-benefit drug (with and without a registry match) and two pharmacy drugs', () => {
    // Warnings stay warnings (codes of NDC, ICD-10-CM and US Core's value sets are not looked up
    // offline; no narrative): printed once each, without where, so that a new kind is seen.
    const warnings = new Set(issuesIn(report, Object.keys(SENT), ['warning']).map((issue) => issue.message));
    if (warnings.size > 0) console.info(`CRD profile validation warnings:\n${[...warnings].join('\n')}`);
    expect(errorsIn(report, Object.keys(SENT))).toEqual([]);
  });

  it('faults a resource that breaks its profile, and a profile no package defines', () => {
    expect(errorsIn(report, ['broken.patient-without-name.json'])).toContainEqual(
      expect.stringMatching(/Patient\.name/),
    );
    expect(errorsIn(report, ['broken.unknown-profile.json'])).toContainEqual(
      expect.stringMatching(/profile-nonexistent/),
    );
  });

  // Pinned so that it is seen when it changes: with no resolved plan the query has no member id, so the
  // Coverage cannot meet us-core-15 (member id in identifier or subscriberId). Only the sandbox's
  // service, in process, is given one: a live case with no plan is not asked, as
  // test/connectors/crd-step.test.ts shows of the step and test/cases/coverage-requirements.test.ts
  // through the API.
  it('with no resolved plan, faults the Coverage for its missing member id only (us-core-15)', () => {
    expect(errorsIn(report, ['no-plan.Coverage.json'])).toEqual([expect.stringMatching(/us-core-15/)]);
  });
});
