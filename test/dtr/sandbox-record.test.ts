import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { DateTime, Executor, Library, Repository } from 'cql-execution';
import { PatientSource } from 'cql-exec-fhir';

import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import type { DrugCriteria } from '../../domain/clinical/criteria';
import { judgeCriteria } from '../../domain/clinical/criteria-evaluation';
import { shippedClinicalCatalog } from '../../infrastructure/catalogs/shipped-catalogs';
import { SANDBOX_QUESTIONNAIRE_BASE } from '../../infrastructure/connectors/crd/simulated-crd-service';
import type { FhirResource } from '../../infrastructure/connectors/crd/cds-hooks';
import { sandboxDtrPackages } from '../../infrastructure/connectors/dtr/sandbox-packages';
import {
  ENDED_BY_INTOLERANCE,
  MEASUREMENT_CODES,
  patientRecordBundle,
  THERAPY_OUTCOME_SYSTEM,
} from '../../infrastructure/dtr/patient-record';
import type { PatientRecordBundle } from '../../infrastructure/dtr/patient-record';
import { projectRoot } from '../../infrastructure/project-root';

// The generator is a plain Node script: it runs before any TypeScript is built.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../../scripts/generate-dtr-packages.js') as {
  THERAPY_OUTCOME_SYSTEM: string;
  ENDED_BY_INTOLERANCE_CODE: string;
  MEASUREMENTS: Record<string, { loinc: string; ucum: string }>;
};

const criteriaCatalog = JSON.parse(
  readFileSync(path.join(projectRoot(), 'catalog/clinical/criteria.json'), 'utf8'),
) as { drugs: DrugCriteria[] };

const NOW = new Date('2026-11-01T15:00:00Z');
const CASE_ID = 'pa_7Hq2xVbN9kLm';

/** A synthetic patient qualified for Ozempic: adult, type 2 diabetes, A1c 8.4 % in September, metformin. */
function ozempicRequest(overrides: Partial<PriorAuthorizationRequest> = {}): PriorAuthorizationRequest {
  return {
    patient: {
      internal_id: 'MRN-55821',
      first_name: 'Ana',
      last_name: 'Lindqvist',
      gender: 'female',
      date_of_birth: '1971-04-09',
    },
    diagnoses: [{ code: 'E11.9', description: 'Type 2 diabetes mellitus without complications' }],
    prescription: {
      drug_name: 'Ozempic',
      ndc: '00169413212',
      strength: '0.5 mg',
      quantity: 1,
      days_supply: 28,
    },
    provider: { npi: '1234567893', first_name: 'Sam', last_name: 'Ray' },
    insurance: [],
    insurance_content: { payer: 'Aetna', payer_id: '60054', member_id: 'W123456789', group_number: 'G-100' },
    evidence: [
      { title: 'Lab results', date_created: '2026-09-15', content: { hemoglobin_a1c: '8.4 %' } },
      {
        title: 'Referral letter',
        date_created: '2026-10-02',
        asset: {
          document_id: 'doc_3mZ8',
          name: 'referral.pdf',
          type: 'application/pdf',
          fileType: 'application/pdf',
          sha256: 'a'.repeat(64),
          size_bytes: 52_113,
        },
      },
    ],
    questionnaires: [],
    visit_notes: [
      {
        content:
          'Took metformin for 6 months without adequate control. Atorvastatin not tolerated due to myalgia.',
        created_at: '2026-10-01T10:00:00Z',
      },
    ],
    is_training_data: false,
    urgency: 'standard',
    mock_result: null,
    ...overrides,
  };
}

function resources(bundle: PatientRecordBundle, type: string): FhirResource[] {
  return bundle.entry.map((entry) => entry.resource).filter((resource) => resource.resourceType === type);
}

const libraries = new Map<string, Library>();

/** A drug's package as a DTR client loads it: the ELM of its Library resources, read once per drug. */
function packageLibrary(drugId: string): Library {
  const pkg = sandboxDtrPackages().get(`${SANDBOX_QUESTIONNAIRE_BASE}/${drugId}`)!;
  const elm = pkg.bundle.entry
    .map((entry) => entry.resource)
    .filter((resource) => resource.resourceType === 'Library')
    .map((library) => {
      const content = library.content as Array<{ contentType: string; data: string }>;
      const data = content.find((attachment) => attachment.contentType === 'application/elm+json')!.data;
      return JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as {
        library: { identifier: { id: string } };
      };
    });
  const main = elm.find((library) => library.library.identifier.id !== 'FHIRHelpers')!;
  const repository = new Repository(
    Object.fromEntries(elm.map((library) => [library.library.identifier.id, library])),
  );
  return new Library(main, repository);
}

// Making a PatientSource parses FHIR's model info, which would take most of each run: one is reset and
// reused, as the service's prefill does. Its loadBundles appends, so runs must never overlap.
const patients = PatientSource.FHIRv401();

/** A drug package's defines on a record, run as a DTR client runs the package's ELM. */
async function cqlAnswers(drugId: string, bundle: PatientRecordBundle): Promise<Record<string, unknown>> {
  const library = libraries.get(drugId) ?? packageLibrary(drugId);
  libraries.set(drugId, library);
  patients.loadBundles([bundle]);
  try {
    const results = await new Executor(library).exec(patients, DateTime.fromJSDate(NOW, 0));
    return Object.values(results.patientResults)[0] as Record<string, unknown>;
  } finally {
    patients.reset();
  }
}

const CQL_ITEMS = ['adult', 'type2_diabetes', 'a1c_at_least_7', 'metformin_trial'];

describe("A prior authorization's patient record as a FHIR bundle", () => {
  it('holds the patient, coverage, prescriber, diagnoses, order, findings and documents', () => {
    const bundle = patientRecordBundle(ozempicRequest(), null, { caseId: CASE_ID, now: NOW });
    expect(bundle).toMatchObject({
      resourceType: 'Bundle',
      type: 'collection',
      timestamp: NOW.toISOString(),
    });
    expect(resources(bundle, 'Patient')).toEqual([
      expect.objectContaining({
        birthDate: '1971-04-09',
        gender: 'female',
        name: [{ use: 'official', family: 'Lindqvist', given: ['Ana'] }],
      }),
    ]);
    expect(resources(bundle, 'Coverage')[0]).toMatchObject({
      subscriberId: 'W123456789',
      payor: [{ display: 'Aetna', identifier: { value: '60054' } }],
    });
    expect(resources(bundle, 'Practitioner')[0]).toMatchObject({
      identifier: [{ system: 'http://hl7.org/fhir/sid/us-npi', value: '1234567893' }],
    });
    expect(resources(bundle, 'Condition')[0]).toMatchObject({
      code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.9' }] },
    });
    expect(resources(bundle, 'MedicationRequest')[0]).toMatchObject({
      status: 'draft',
      medicationCodeableConcept: { coding: [{ code: '00169413212' }], text: 'Ozempic 0.5 mg' },
    });
    expect(resources(bundle, 'Observation')).toEqual([
      expect.objectContaining({
        status: 'final',
        code: expect.objectContaining({ coding: [expect.objectContaining({ code: '4548-4' })] }),
        effectiveDateTime: '2026-09-15',
        valueQuantity: { value: 8.4, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
      }),
    ]);
    const [metformin, atorvastatin] = resources(bundle, 'MedicationStatement');
    expect(metformin).toMatchObject({
      status: 'completed',
      medicationCodeableConcept: { text: 'metformin' },
      dosage: [{ timing: { repeat: { boundsRange: { low: { value: 180 }, high: { value: 180 } } } } }],
    });
    expect(atorvastatin).toMatchObject({
      status: 'stopped',
      statusReason: [{ coding: [{ system: THERAPY_OUTCOME_SYSTEM, code: ENDED_BY_INTOLERANCE }] }],
    });
    expect(resources(bundle, 'DocumentReference').map((document) => document.description)).toEqual([
      'Lab results',
      'Referral letter',
      'Visit note',
    ]);
    expect(resources(bundle, 'DocumentReference')[1]).toMatchObject({
      masterIdentifier: { value: 'doc_3mZ8' },
      content: [{ attachment: { contentType: 'application/pdf', size: 52_113 } }],
    });
  });

  it('names no coverage without insurance details', () => {
    const bundle = patientRecordBundle(ozempicRequest({ insurance_content: null }), null, {
      caseId: CASE_ID,
      now: NOW,
    });
    expect(resources(bundle, 'Coverage')).toEqual([]);
    expect(resources(bundle, 'MedicationRequest')[0]!.insurance).toBeUndefined();
  });

  it('gives resources opaque ids, the same for the same case and free of PHI', () => {
    const request = ozempicRequest();
    const first = patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW });
    const again = patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW });
    const other = patientRecordBundle(request, null, { caseId: 'pa_other', now: NOW });
    const ids = first.entry.map((entry) => entry.resource.id);
    expect(again.entry.map((entry) => entry.resource.id)).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(other.entry.map((entry) => entry.resource.id).some((id) => ids.includes(id))).toBe(false);
  });

  it('codes measurements and trial outcomes as the generated CQL reads them', () => {
    expect(THERAPY_OUTCOME_SYSTEM).toBe(generator.THERAPY_OUTCOME_SYSTEM);
    expect(ENDED_BY_INTOLERANCE).toBe(generator.ENDED_BY_INTOLERANCE_CODE);
    for (const [name, code] of Object.entries(MEASUREMENT_CODES)) {
      expect({ loinc: code.loinc, ucum: code.ucum }).toEqual({
        loinc: generator.MEASUREMENTS[name]?.loinc,
        ucum: generator.MEASUREMENTS[name]?.ucum,
      });
    }
  });
});

describe("The Ozempic package's CQL on the record", () => {
  it('answers every CQL item true for a record meeting every criterion', async () => {
    const answers = await cqlAnswers(
      'ozempic',
      patientRecordBundle(ozempicRequest(), null, { caseId: CASE_ID, now: NOW }),
    );
    for (const item of CQL_ITEMS) expect([item, answers[item]]).toEqual([item, true]);
  });

  it('leaves the A1c unanswered (null) when the record has none, so the item waits for a person', async () => {
    const request = ozempicRequest({ evidence: [] });
    const answers = await cqlAnswers(
      'ozempic',
      patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW }),
    );
    expect(answers.a1c_at_least_7).toBeNull();
    expect(answers.metformin_trial).toBe(true);
  });

  it('answers false when the record contradicts: an A1c below 7 %, a shorter metformin trial, another diagnosis', async () => {
    const request = ozempicRequest({
      diagnoses: [{ code: 'I10', description: 'Essential hypertension' }],
      evidence: [{ title: 'Lab results', date_created: '2026-09-15', content: { hemoglobin_a1c: '6.2 %' } }],
      visit_notes: [{ content: 'Took metformin for 6 weeks.', created_at: '2026-10-01T10:00:00Z' }],
    });
    const answers = await cqlAnswers(
      'ozempic',
      patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW }),
    );
    expect(answers).toMatchObject({ type2_diabetes: false, a1c_at_least_7: false, metformin_trial: false });
  });

  it('reads an A1c older than six months as no A1c, and metformin not tolerated as meeting the step', async () => {
    const request = ozempicRequest({
      evidence: [{ title: 'Lab results', date_created: '2026-03-01', content: { hemoglobin_a1c: '9.1 %' } }],
      visit_notes: [
        { content: 'Metformin not tolerated due to GI upset.', created_at: '2026-10-01T10:00:00Z' },
      ],
    });
    const answers = await cqlAnswers(
      'ozempic',
      patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW }),
    );
    expect(answers).toMatchObject({ a1c_at_least_7: null, metformin_trial: true });
  });

  it('answers adult false for a minor', async () => {
    const request = ozempicRequest();
    request.patient = { ...request.patient, date_of_birth: '2010-02-01' };
    const answers = await cqlAnswers(
      'ozempic',
      patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW }),
    );
    expect(answers.adult).toBe(false);
  });
});

/** Synthetic records across the catalog's therapeutic areas, each meeting some criteria and not others. */
const RECORDS: Record<string, Partial<PriorAuthorizationRequest>> = {
  diabetes: {},
  'diabetes without data': { evidence: [], visit_notes: [] },
  obesity: {
    diagnoses: [{ code: 'I10', description: 'Essential hypertension' }],
    evidence: [{ title: 'Vitals', date_created: '2026-10-20', content: { bmi: '28.1 kg/m2' } }],
    visit_notes: [
      { content: 'Reduced-calorie diet and exercise counselling.', created_at: '2026-10-20T10:00:00Z' },
    ],
  },
  'rheumatoid arthritis': {
    diagnoses: [{ code: 'M05.79', description: 'Rheumatoid arthritis with rheumatoid factor' }],
    evidence: [],
    visit_notes: [
      {
        content: 'Methotrexate for 16 weeks with inadequate response. Prior adalimumab failed.',
        created_at: '2026-10-01T10:00:00Z',
      },
    ],
  },
  asthma: {
    diagnoses: [{ code: 'J45.50', description: 'Severe persistent asthma, uncomplicated' }],
    evidence: [
      {
        title: 'CBC',
        date_created: '2026-10-10',
        content: { blood_eosinophils: '320 cells/uL', total_ige: '210 IU/mL' },
      },
    ],
    visit_notes: [
      { content: 'On ICS/LABA for 6 months, still uncontrolled.', created_at: '2026-10-10T10:00:00Z' },
    ],
  },
  hyperlipidemia: {
    diagnoses: [{ code: 'E78.01', description: 'Familial hypercholesterolemia' }],
    evidence: [
      { title: 'Lipid panel', date_created: '2026-09-01', content: { ldl_cholesterol: '162 mg/dL' } },
    ],
    visit_notes: [
      {
        content: 'Atorvastatin not tolerated due to myalgia. Ezetimibe for 4 weeks.',
        created_at: '2026-09-01T10:00:00Z',
      },
    ],
  },
};

const VERDICT_OF_STATUS = { met: true, not_met: false, unknown: null } as const;

describe('The CQL of every package on the record', () => {
  const answered = new Set<unknown>();

  afterAll(() => {
    // The records are chosen so that the agreement covers every answer, not only unknowns.
    expect([...answered].sort()).toEqual([false, null, true].sort());
  });

  it.each(Object.keys(RECORDS))('answers as the criteria engine judges a %s record', async (name) => {
    const request = ozempicRequest(RECORDS[name]);
    const catalog = shippedClinicalCatalog();
    const bundle = patientRecordBundle(request, null, { caseId: CASE_ID, now: NOW });
    const record: ClinicalRecord = {
      patient: request.patient,
      asOf: NOW.toISOString().slice(0, 10),
      drugs: [],
      diagnoses: request.diagnoses,
      questionnaires: request.questionnaires,
      visitNotes: request.visit_notes,
      evidence: request.evidence.flatMap((item) =>
        item.content ? [{ title: item.title, date_created: item.date_created, content: item.content }] : [],
      ),
    };
    const disagreements: string[] = [];
    for (const { drug_id: drugId, criteria } of criteriaCatalog.drugs) {
      const asked = criteria.all_of.filter(
        (criterion) => !('check' in criterion && criterion.check.kind === 'documentation'),
      );
      const verdicts = judgeCriteria(asked, record, catalog);
      const answers = await cqlAnswers(drugId, bundle);
      asked.forEach((criterion, index) => {
        const expected = VERDICT_OF_STATUS[verdicts[index]!.status];
        answered.add(answers[criterion.id]);
        if (answers[criterion.id] !== expected)
          disagreements.push(
            `${drugId}.${criterion.id}: CQL ${String(answers[criterion.id])}, engine ${String(expected)}`,
          );
      });
    }
    expect(disagreements).toEqual([]);
  });
});
