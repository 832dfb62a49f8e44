import type { DocumentRef } from '../../domain/cases/case-model';
import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import type { ClinicalEvidence, ClinicalRecord } from '../../domain/clinical/clinical-model';
import type { ClinicalCatalog } from '../../domain/clinical/criteria-catalog';
import { MEASUREMENT_LABELS, MEASUREMENT_UNITS } from '../../domain/clinical/measurements';
import type { MeasurementFact, MeasurementName, ValueRange } from '../../domain/clinical/measurements';
import type { TherapyFact } from '../../domain/clinical/therapy-history';
import { normalizeNdc } from '../../domain/payers/payer-catalog';
import { shippedClinicalCatalog } from '../catalogs/shipped-catalogs';
import type { FhirResource } from '../connectors/crd/cds-hooks';
import { SYSTEM } from '../connectors/pas/pas-codes';
import { dispenseRequest, resourceUrn } from '../connectors/pas/pas-request';

/**
 * A prior authorization's patient record as a FHIR R4 Bundle, the record the payer's DTR CQL reads:
 * the patient, their coverage and prescriber, the diagnoses, the order, what the evidence reader found
 * in the evidence, notes and questionnaires (measurements as Observations, therapies as
 * MedicationStatements), and the evidence documents themselves.
 *
 * Written as the sandbox's CQL reads it (scripts/generate-dtr-packages.js): ICD-10-CM Conditions, LOINC
 * Observations in canonical UCUM units with their date, and trial lengths in days as a dosage's
 * `timing.repeat.boundsRange`. Deterministic: resource ids are name-based UUIDs of the case id and the
 * resource's role (the ids the CRD and PAS requests give the same resources), never PHI.
 */

/** What the evidence reader found in the record (domain/clinical/evidence-extractor.ts). */
export interface RecordFacts {
  measurements: MeasurementFact[];
  therapies: TherapyFact[];
}

export interface PatientRecordOptions {
  caseId: string;
  /** The record's date: the bundle's timestamp, the order's authoring time, and "today" for the facts. */
  now: Date;
}

export interface PatientRecordBundle {
  resourceType: 'Bundle';
  id: string;
  type: 'collection';
  timestamp: string;
  entry: Array<{ fullUrl: string; resource: FhirResource }>;
}

/** A trial ended by an intolerance or contraindication, which payers accept in place of the trial. */
export const THERAPY_OUTCOME_SYSTEM =
  'http://sandbox.healthcare-access-api.example/fhir/CodeSystem/therapy-outcome';
export const ENDED_BY_INTOLERANCE = 'intolerance-or-contraindication';

/** Each measurement's LOINC code and the UCUM code of its canonical unit. */
export const MEASUREMENT_CODES: Readonly<
  Record<MeasurementName, { loinc: string; display: string; ucum: string; category: string }>
> = {
  a1c: {
    loinc: '4548-4',
    display: 'Hemoglobin A1c/Hemoglobin.total in Blood',
    ucum: '%',
    category: 'laboratory',
  },
  ldl: {
    loinc: '13457-7',
    display: 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation',
    ucum: 'mg/dL',
    category: 'laboratory',
  },
  bmi: { loinc: '39156-5', display: 'Body mass index (BMI) [Ratio]', ucum: 'kg/m2', category: 'vital-signs' },
  eosinophils: {
    loinc: '26449-9',
    display: 'Eosinophils [#/volume] in Blood',
    ucum: '/uL',
    category: 'laboratory',
  },
  ige: {
    loinc: '19113-0',
    display: 'IgE [Units/volume] in Serum or Plasma',
    ucum: '[IU]/mL',
    category: 'laboratory',
  },
};

const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
/** Opaque ids of the case's documents, so a reader can ask the case for the bytes. */
const CASE_DOCUMENT_SYSTEM = 'urn:healthcare-access-api:document';

const FHIR_GENDER = { male: 'male', female: 'female', other: 'other', not_specified: 'unknown' } as const;

/**
 * What the evidence reader finds in the request, as of `asOf` (YYYY-MM-DD). `evidence` is the evidence
 * as the criteria engine reads it (activities/evidence-reading.ts turns file assets into their pages'
 * text); without it only the evidence's JSON content is read, beside the notes and questionnaires.
 */
export function recordFacts(
  request: PriorAuthorizationRequest,
  asOf: string,
  evidence: ClinicalEvidence[] = jsonEvidence(request),
  catalog: ClinicalCatalog = shippedClinicalCatalog(),
): RecordFacts {
  const record: ClinicalRecord = {
    patient: request.patient,
    asOf,
    drugs: [{ name: request.prescription.drug_name ?? request.prescription.ndc ?? '', quantity: 0 }],
    diagnoses: request.diagnoses,
    questionnaires: request.questionnaires,
    visitNotes: request.visit_notes,
    evidence,
  };
  const facts = catalog.extractor.extract(
    record,
    request.diagnoses.map((diagnosis) => catalog.icd10.resolve(diagnosis)),
  );
  return { measurements: facts.measurements, therapies: facts.therapies };
}

/** The record as a Bundle; `facts` null reads them from the request (see `recordFacts`). */
export function patientRecordBundle(
  request: PriorAuthorizationRequest,
  facts: RecordFacts | null,
  options: PatientRecordOptions,
): PatientRecordBundle {
  const { caseId, now } = options;
  const found = facts ?? recordFacts(request, now.toISOString().slice(0, 10));
  const id = (role: string) => resourceUrn(caseId, role).slice('urn:uuid:'.length);
  const ids = {
    patient: id('patient'),
    practitioner: id('practitioner'),
    coverage: id('coverage'),
    order: id('medication-request'),
  };
  const subject = { reference: `Patient/${ids.patient}` };
  const catalog = shippedClinicalCatalog();
  const conditions = request.diagnoses.map((diagnosis, index) =>
    condition(id(`condition-${index + 1}`), subject, diagnosis, catalog.icd10.resolve(diagnosis).code),
  );
  const coverageResource = request.insurance_content ? coverage(ids, request) : null;
  const resources: FhirResource[] = [
    patient(ids.patient, request),
    ...(coverageResource ? [coverageResource] : []),
    practitioner(ids.practitioner, request),
    ...conditions,
    medicationRequest(ids, request, conditions, coverageResource !== null, now),
    ...unique(found.measurements, measurementKey).flatMap((fact, index) =>
      observation(id(`observation-${index + 1}`), subject, fact),
    ),
    ...unique(found.therapies, therapyKey).map((fact, index) =>
      medicationStatement(id(`medication-statement-${index + 1}`), subject, fact),
    ),
    ...documents(request).map((document, index) =>
      documentReference(id(`document-reference-${index + 1}`), subject, document),
    ),
  ];
  return {
    resourceType: 'Bundle',
    id: id('dtr-patient-record'),
    type: 'collection',
    timestamp: now.toISOString(),
    entry: resources.map((resource) => ({ fullUrl: `urn:uuid:${resource.id}`, resource })),
  };
}

function jsonEvidence(request: PriorAuthorizationRequest): ClinicalEvidence[] {
  return request.evidence.flatMap((item) =>
    item.content ? [{ title: item.title, date_created: item.date_created, content: item.content }] : [],
  );
}

/** The reader may find one value in several passages; the record states it once. */
function unique<T>(facts: readonly T[], key: (fact: T) => string): T[] {
  const seen = new Set<string>();
  return facts.filter((fact) => {
    const k = key(fact);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const measurementKey = (fact: MeasurementFact) => JSON.stringify([fact.name, fact.range, fact.date]);
const therapyKey = (fact: TherapyFact) =>
  JSON.stringify([fact.therapy, fact.assertion, fact.duration?.min, fact.duration?.max, fact.date]);

function patient(id: string, request: PriorAuthorizationRequest): FhirResource {
  const { patient: person } = request;
  return {
    resourceType: 'Patient',
    id,
    // The name the payer knows the member by, as on the insurance card: what CQL reads as `official`.
    name: [{ use: 'official', family: person.last_name, given: [person.first_name] }],
    gender: FHIR_GENDER[person.gender],
    birthDate: person.date_of_birth,
  };
}

function coverage(
  ids: { coverage: string; patient: string },
  request: PriorAuthorizationRequest,
): FhirResource {
  const insurance = request.insurance_content!;
  const classes = [
    ['group', insurance.group_number],
    ['rxbin', insurance.rx_bin],
    ['rxpcn', insurance.rx_pcn],
    ['rxgroup', insurance.rx_group],
  ].flatMap(([type, value]) =>
    value ? [{ type: { coding: [{ system: SYSTEM.coverageClass, code: type }] }, value }] : [],
  );
  return {
    resourceType: 'Coverage',
    id: ids.coverage,
    status: 'active',
    ...(insurance.member_id && { subscriberId: insurance.member_id }),
    beneficiary: { reference: `Patient/${ids.patient}` },
    relationship: {
      coding: [{ system: SYSTEM.subscriberRelationship, code: insurance.subscriber?.relationship ?? 'self' }],
    },
    payor: [
      {
        ...(insurance.payer_id && {
          identifier: {
            type: { coding: [{ system: SYSTEM.identifierType, code: 'NIIP' }] },
            value: insurance.payer_id,
          },
        }),
        display: insurance.payer ?? 'Payer not identified',
      },
    ],
    ...(classes.length > 0 && { class: classes }),
  };
}

function practitioner(id: string, request: PriorAuthorizationRequest): FhirResource {
  const { provider } = request;
  return {
    resourceType: 'Practitioner',
    id,
    identifier: [{ system: SYSTEM.npi, value: provider.npi }],
    name: [{ family: provider.last_name, given: [provider.first_name] }],
  };
}

/**
 * A diagnosis as the criteria engine understands it: coded with the ICD-10-CM code it resolves to, or
 * by its words alone when it resolves to none (so the CQL, like the engine, cannot rule a family out).
 */
function condition(
  id: string,
  subject: { reference: string },
  diagnosis: PriorAuthorizationRequest['diagnoses'][number],
  resolvedCode: string | null,
): FhirResource {
  const text = diagnosis.description?.trim() || diagnosis.code;
  return {
    resourceType: 'Condition',
    id,
    clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'active' }] },
    verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'confirmed' }] },
    category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'problem-list-item' }] }],
    code: {
      ...(resolvedCode && {
        coding: [
          {
            system: SYSTEM.icd10cm,
            code: resolvedCode,
            ...(diagnosis.description && { display: diagnosis.description }),
          },
        ],
      }),
      text,
    },
    subject,
  };
}

function medicationRequest(
  ids: { order: string; patient: string; practitioner: string; coverage: string },
  request: PriorAuthorizationRequest,
  conditions: FhirResource[],
  insured: boolean,
  now: Date,
): FhirResource {
  const { prescription } = request;
  const directions = prescription.directions ?? prescription.dosage;
  return {
    resourceType: 'MedicationRequest',
    id: ids.order,
    status: 'draft',
    intent: 'order',
    medicationCodeableConcept: {
      ...(prescription.ndc && { coding: [{ system: SYSTEM.ndc, code: normalizeNdc(prescription.ndc) }] }),
      text:
        [prescription.drug_name, prescription.strength].filter(Boolean).join(' ') ||
        prescription.ndc ||
        'Medication',
    },
    subject: { reference: `Patient/${ids.patient}` },
    authoredOn: now.toISOString(),
    requester: { reference: `Practitioner/${ids.practitioner}` },
    ...(conditions.length > 0 && {
      reasonReference: conditions.map((resource) => ({ reference: `Condition/${resource.id}` })),
    }),
    ...(directions && { dosageInstruction: [{ text: directions }] }),
    dispenseRequest: dispenseRequest(prescription),
    ...(insured && { insurance: [{ reference: `Coverage/${ids.coverage}` }] }),
  };
}

/**
 * A measured value in its canonical unit. A value read only as a bound ("BMI over 30") keeps it as the
 * quantity's comparator; a span between two values is a valueRange, which decides no threshold here.
 */
function observation(id: string, subject: { reference: string }, fact: MeasurementFact): FhirResource[] {
  const code = MEASUREMENT_CODES[fact.name];
  const value = observationValue(fact.range, fact.name);
  if (!value) return [];
  return [
    {
      resourceType: 'Observation',
      id,
      status: 'final',
      category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: code.category }] }],
      code: {
        coding: [{ system: SYSTEM.loinc, code: code.loinc, display: code.display }],
        text: MEASUREMENT_LABELS[fact.name],
      },
      subject,
      ...(fact.date && { effectiveDateTime: fact.date }),
      ...value,
      note: [{ text: citation(fact.citation) }],
    },
  ];
}

function observationValue(range: ValueRange, name: MeasurementName): Record<string, unknown> | null {
  const quantity = (value: number, comparator?: string) => ({
    value,
    ...(comparator && { comparator }),
    unit: MEASUREMENT_UNITS[name],
    system: SYSTEM.ucum,
    code: MEASUREMENT_CODES[name].ucum,
  });
  const { low, high } = range;
  if (low && high && low.value === high.value) return { valueQuantity: quantity(low.value) };
  if (low && high) return { valueRange: { low: quantity(low.value), high: quantity(high.value) } };
  if (low) return { valueQuantity: quantity(low.value, low.inclusive ? '>=' : '>') };
  if (high) return { valueQuantity: quantity(high.value, high.inclusive ? '<=' : '<') };
  return null;
}

/**
 * A therapy as the reader found it: tried (completed), not tolerated or contraindicated (stopped, with
 * that reason coded), or denied (not-taken). The trial's length in days, when stated, is the first
 * dosage's `timing.repeat.boundsRange`: low the shortest it may have been, high the longest (absent
 * when open-ended); a denied trial's range is the length denied.
 */
function medicationStatement(id: string, subject: { reference: string }, fact: TherapyFact): FhirResource {
  const days = (value: number) => ({ value, unit: 'days', system: SYSTEM.ucum, code: 'd' });
  const status = { tried: 'completed', intolerant: 'stopped', not_tried: 'not-taken' }[fact.assertion];
  return {
    resourceType: 'MedicationStatement',
    id,
    status,
    ...(fact.assertion === 'intolerant' && {
      statusReason: [
        {
          coding: [{ system: THERAPY_OUTCOME_SYSTEM, code: ENDED_BY_INTOLERANCE }],
          text: 'Not tolerated or contraindicated',
        },
      ],
    }),
    medicationCodeableConcept: { text: fact.therapy },
    subject,
    ...(fact.date && { dateAsserted: fact.date }),
    ...(fact.duration && {
      dosage: [
        {
          timing: {
            repeat: {
              boundsRange: {
                low: days(fact.duration.min),
                ...(Number.isFinite(fact.duration.max) && { high: days(fact.duration.max) }),
              },
            },
          },
        },
      ],
    }),
    note: [{ text: citation(fact.citation) }],
  };
}

function citation({ source, excerpt }: { source: string; excerpt: string }): string {
  return excerpt ? `${source}: "${excerpt}"` : source;
}

interface RecordDocument {
  title: string;
  date: string;
  /** A file of the case, by reference: its bytes stay with the case. */
  asset?: DocumentRef & { fileType: string };
  /** Content sent inline: an evidence item's JSON, a visit note's text. */
  inline?: { contentType: string; data: string };
}

function documents(request: PriorAuthorizationRequest): RecordDocument[] {
  return [
    ...request.evidence.map((item) => ({
      title: item.title,
      date: item.date_created,
      ...(item.asset
        ? { asset: item.asset }
        : { inline: { contentType: 'application/json', data: JSON.stringify(item.content ?? {}) } }),
    })),
    ...request.visit_notes.map((note) => ({
      title: 'Visit note',
      date: note.created_at,
      inline: { contentType: 'text/plain', data: note.content },
    })),
  ];
}

function documentReference(
  id: string,
  subject: { reference: string },
  document: RecordDocument,
): FhirResource {
  const { asset, inline } = document;
  return {
    resourceType: 'DocumentReference',
    id,
    ...(asset && { masterIdentifier: { system: CASE_DOCUMENT_SYSTEM, value: asset.document_id } }),
    status: 'current',
    type: { text: document.title },
    category: [{ coding: [{ system: SYSTEM.documentCategory, code: 'clinical-note' }] }],
    subject,
    description: document.title,
    content: [
      {
        attachment: asset
          ? { contentType: asset.fileType || asset.type, title: asset.name, size: asset.size_bytes }
          : {
              contentType: inline!.contentType,
              data: Buffer.from(inline!.data, 'utf8').toString('base64'),
              title: document.title,
            },
      },
    ],
    context: { period: { start: document.date } },
  };
}
