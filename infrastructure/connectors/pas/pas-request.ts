import { createHash } from 'node:crypto';

import type { CaseEvidenceItem, Diagnosis, VisitNote } from '../../../domain/cases/case-model';
import type { Prescription } from '../../../domain/cases/prior-authorization-request';
import { questionnaireResponseOf } from '../../../domain/dtr/questionnaire-response';
import { createdAtOfId } from '../../../domain/ids';
import { normalizeNdc } from '../../../domain/payers/payer-catalog';
import { prescriberForPayer } from '../../../domain/providers/prescriber-registry';
import type {
  InformationAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
} from '../../../domain/payers/prior-authorization-exchange';
import { PAS_EXTENSION, PAS_PROFILE, SYSTEM } from './pas-codes';
import { shippedPayerCatalog } from '../../catalogs/shipped-catalogs';

/**
 * Writes the Da Vinci PAS request Bundles: `$submit` (a PAS Claim with its Patient, Coverage,
 * payer, prescriber, MedicationRequest and supporting documents), `$inquire` (a PAS Claim inquiry
 * naming the original request) and the answer to a payer's information request (a PAS Claim
 * update, sent with `$submit`, whose new supporting information is a QuestionnaireResponse with the
 * answers and the attached documents).
 *
 * Deterministic: the same input and `sentAt` give the same bytes. Every fullUrl is a `urn:uuid`
 * derived from the case id and the resource's role, so resources keep their ids across the
 * submission, inquiries and updates of one case, and nothing random enters the Bundle.
 */

type Resource = Record<string, unknown>;

export interface PasRequestOptions {
  /** The Bundle's timestamp and the Claim's `created`. */
  sentAt: Date;
}

/** A fixed namespace for our name-based (RFC 4122 version 5) resource ids. */
const RESOURCE_ID_NAMESPACE = Buffer.from('6f0f8f0a5d1e4b57a3c9a1e2d7b4c8e1', 'hex');

/** The urn:uuid of one resource of one case (RFC 4122 version 5, SHA-1 of the case id and the role). */
export function resourceUrn(caseId: string, role: string): string {
  const bytes = createHash('sha1').update(RESOURCE_ID_NAMESPACE).update(`${caseId}/${role}`).digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.subarray(0, 16).toString('hex');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The `$submit` Bundle of a new prior authorization request. */
export function writeSubmitBundle(input: PriorAuthExchangeInput, options: PasRequestOptions): string {
  const parties = partiesOf(input, options);
  const documents = supportingDocuments(input, options);
  const claim = {
    resourceType: 'Claim',
    id: idOf(parties.urls.claim),
    meta: { profile: [PAS_PROFILE.claim] },
    ...claimBody(input, parties, options),
    ...(documents.length > 0 && {
      supportingInfo: documents.map((document, index) => additionalInformation(index + 1, document)),
    }),
    item: [claimItem(input, parties, documents.length)],
  };
  return bundle(input.caseId, 'submit', PAS_PROFILE.requestBundle, options, [
    [parties.urls.claim, claim],
    ...parties.entries,
    ...documents.map((document) => [document.url, document.resource] as const),
  ]);
}

/**
 * The `$inquire` Bundle asking after a request the payer has pended: the request's identifier (a PAS
 * Claim inquiry has one) and the payer's reference as the case's reference at the payer.
 */
export function writeInquiryBundle(input: PriorAuthInquiryInput, options: PasRequestOptions): string {
  const parties = partiesOf(input, options);
  const url = resourceUrn(input.caseId, `claim-inquiry-${input.inquiriesSoFar + 1}`);
  const claim = {
    resourceType: 'Claim',
    id: idOf(url),
    meta: { profile: [PAS_PROFILE.claimInquiry] },
    ...claimBody(input, parties, options),
    related: [{ reference: payerReference(input) }],
    item: [claimItem(input, parties, 0)],
  };
  return bundle(
    input.caseId,
    `inquiry-${input.inquiriesSoFar + 1}`,
    PAS_PROFILE.inquiryRequestBundle,
    options,
    [[url, claim], ...parties.entries],
  );
}

/**
 * The answer to a payer's information request. The PAS IG routes solicited attachments through
 * CDex `$submit-attachment` when the payer's endpoint offers it; an updated request sent to the same
 * `$submit` (a PAS Claim update, `related` to the original) carries the same content to any PAS
 * endpoint, which is why the connector sends this: the answers as a QuestionnaireResponse and the
 * evidence the answer added as DocumentReferences, both as supporting information marked `added`.
 * Each round (`input.round`, 1 when absent) has its own Bundle identifier, Claim and
 * QuestionnaireResponse, so a payer that deduplicates on them never mistakes round 2 for round 1.
 */
export function writeInformationBundle(input: PriorAuthInformationInput, options: PasRequestOptions): string {
  const parties = partiesOf(input, options);
  const round = input.round ?? 1;
  const added = new Set((input.addedEvidence ?? []).map((index) => evidenceRole(index)));
  const documents = supportingDocuments(input, options);
  const answers = answersDocument(input, round, parties.urls.patient, options);
  const sent = [...documents, answers];
  const url = resourceUrn(input.caseId, `claim-update-${round}`);
  const claim = {
    resourceType: 'Claim',
    id: idOf(url),
    meta: { profile: [PAS_PROFILE.claimUpdate] },
    ...claimBody(input, parties, options),
    related: [
      {
        claim: { identifier: caseIdentifier(input.caseId) },
        relationship: { coding: [{ system: SYSTEM.relatedClaimRelationship, code: 'prior' }] },
        reference: payerReference(input),
      },
    ],
    supportingInfo: sent.map((document, index) => {
      const info = additionalInformation(index + 1, document);
      return document === answers || added.has(document.role)
        ? { ...info, extension: [...info.extension, { url: PAS_EXTENSION.infoChanged, valueCode: 'added' }] }
        : info;
    }),
    item: [claimItem(input, parties, sent.length)],
  };
  return bundle(input.caseId, `information-${round}`, PAS_PROFILE.requestBundle, options, [
    [url, claim],
    ...parties.entries,
    ...sent.map((document) => [document.url, document.resource] as const),
  ]);
}

interface Parties {
  urls: Record<
    'claim' | 'patient' | 'coverage' | 'insurer' | 'practitioner' | 'practitionerRole' | 'medicationRequest',
    string
  >;
  entries: Array<readonly [string, Resource]>;
}

function partiesOf(input: PriorAuthExchangeInput, options: PasRequestOptions): Parties {
  const { request, plan, caseId } = input;
  const urls = {
    claim: resourceUrn(caseId, 'claim'),
    patient: resourceUrn(caseId, 'patient'),
    coverage: resourceUrn(caseId, 'coverage'),
    insurer: resourceUrn(caseId, 'insurer'),
    practitioner: resourceUrn(caseId, 'practitioner'),
    practitionerRole: resourceUrn(caseId, 'practitioner-role'),
    medicationRequest: resourceUrn(caseId, 'medication-request'),
  };
  const patient = request.patient;
  const insurance = request.insurance_content;
  const memberId = insurance?.member_id ?? plan?.member_id;
  const payerName = insurance?.payer ?? plan?.payer_name;
  const payerId = insurance?.payer_id ?? plan?.payer_id;
  const groupNumber = insurance?.group_number ?? insurance?.rx_group ?? plan?.rx_group;
  const provider = prescriberForPayer(request.provider, input.prescriber);
  const prescription = request.prescription;
  const ndc = ndcOf(input);
  const entries: Array<readonly [string, Resource]> = [
    [
      urls.patient,
      {
        resourceType: 'Patient',
        id: idOf(urls.patient),
        meta: { profile: [PAS_PROFILE.beneficiary] },
        identifier: [
          medicalRecordIdentifier(input.accountId, patient),
          ...(memberId && payerId ? [memberIdentifier(payerId, memberId)] : []),
        ],
        name: [{ family: patient.last_name, given: [patient.first_name] }],
        gender: FHIR_GENDER[patient.gender],
        birthDate: patient.date_of_birth,
        ...(patient.address && { address: [address(patient.address)] }),
      },
    ],
    [
      urls.coverage,
      {
        resourceType: 'Coverage',
        id: idOf(urls.coverage),
        meta: { profile: [PAS_PROFILE.coverage] },
        status: 'active',
        ...(memberId && { subscriberId: memberId }),
        beneficiary: { reference: urls.patient },
        relationship: {
          coding: [
            { system: SYSTEM.subscriberRelationship, code: insurance?.subscriber?.relationship ?? 'self' },
          ],
        },
        payor: [{ reference: urls.insurer }],
        ...(groupNumber && {
          class: [
            {
              type: { coding: [{ system: SYSTEM.coverageClass, code: 'group' }] },
              value: groupNumber,
            },
          ],
        }),
      },
    ],
    [
      urls.insurer,
      {
        resourceType: 'Organization',
        id: idOf(urls.insurer),
        meta: { profile: [PAS_PROFILE.insurer] },
        ...(payerId && {
          identifier: [
            { type: { coding: [{ system: SYSTEM.identifierType, code: 'NIIP' }] }, value: payerId },
          ],
        }),
        active: true,
        type: [
          { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/organization-type', code: 'ins' }] },
        ],
        ...(payerName && { name: payerName }),
      },
    ],
    [
      urls.practitioner,
      {
        resourceType: 'Practitioner',
        id: idOf(urls.practitioner),
        meta: { profile: [PAS_PROFILE.practitioner] },
        identifier: [{ system: SYSTEM.npi, value: provider.npi }],
        name: [{ family: provider.last_name, given: [provider.first_name] }],
        ...(telecom(provider.phone, provider.fax) && { telecom: telecom(provider.phone, provider.fax) }),
        ...(provider.address && { address: [address(provider.address)] }),
      },
    ],
    [
      urls.practitionerRole,
      {
        resourceType: 'PractitionerRole',
        id: idOf(urls.practitionerRole),
        meta: { profile: [PAS_PROFILE.practitionerRole] },
        practitioner: { reference: urls.practitioner },
        ...(provider.taxonomy && {
          specialty: [
            {
              coding: [
                {
                  system: SYSTEM.nuccTaxonomy,
                  code: provider.taxonomy.code,
                  display: provider.taxonomy.description,
                },
              ],
            },
          ],
        }),
      },
    ],
    [
      urls.medicationRequest,
      {
        resourceType: 'MedicationRequest',
        id: idOf(urls.medicationRequest),
        meta: { profile: [PAS_PROFILE.medicationRequest] },
        status: 'active',
        intent: 'order',
        medicationCodeableConcept: {
          ...(ndc && { coding: [{ system: SYSTEM.ndc, code: ndc }] }),
          text:
            [prescription.drug_name, prescription.strength].filter(Boolean).join(' ') || ndc || 'Medication',
        },
        subject: { reference: urls.patient },
        authoredOn: authoredOn(input, options),
        requester: { reference: urls.practitioner },
        ...(request.diagnoses.length > 0 && { reasonCode: request.diagnoses.map(diagnosisConcept) }),
        ...((prescription.directions ?? prescription.dosage) && {
          dosageInstruction: [{ text: prescription.directions ?? prescription.dosage }],
        }),
        dispenseRequest: dispenseRequest(prescription),
      },
    ],
  ];
  return { urls, entries };
}

function claimBody(input: PriorAuthExchangeInput, parties: Parties, options: PasRequestOptions) {
  const expedited = input.urgency === 'expedited';
  return {
    ...(expedited && {
      extension: [
        {
          url: PAS_EXTENSION.levelOfServiceCode,
          valueCodeableConcept: {
            coding: [{ system: SYSTEM.x12LevelOfService, code: 'U', display: 'Urgent' }],
          },
        },
      ],
    }),
    identifier: [caseIdentifier(input.caseId)],
    status: 'active',
    type: {
      coding: [{ system: SYSTEM.claimType, code: medicalBenefit(input) ? 'professional' : 'pharmacy' }],
    },
    use: 'preauthorization',
    patient: { reference: parties.urls.patient },
    created: options.sentAt.toISOString(),
    insurer: { reference: parties.urls.insurer },
    provider: { reference: parties.urls.practitionerRole },
    priority: { coding: [{ system: SYSTEM.processPriority, code: expedited ? 'stat' : 'normal' }] },
    careTeam: [
      {
        extension: [{ url: PAS_EXTENSION.careTeamClaimScope, valueBoolean: true }],
        sequence: 1,
        provider: { reference: parties.urls.practitionerRole },
      },
    ],
    ...(input.request.diagnoses.length > 0 && {
      diagnosis: input.request.diagnoses.map((diagnosis, index) => ({
        sequence: index + 1,
        diagnosisCodeableConcept: diagnosisConcept(diagnosis),
      })),
    }),
    insurance: [{ sequence: 1, focal: true, coverage: { reference: parties.urls.coverage } }],
  };
}

function claimItem(input: PriorAuthExchangeInput, parties: Parties, documentCount: number) {
  const medical = medicalBenefit(input);
  return {
    extension: [
      {
        url: PAS_EXTENSION.serviceItemRequestType,
        valueCodeableConcept: { coding: [{ system: SYSTEM.x12RequestCategory, code: 'HS' }] },
      },
      {
        url: PAS_EXTENSION.certificationType,
        valueCodeableConcept: { coding: [{ system: SYSTEM.x12CertificationType, code: 'I' }] },
      },
      { url: PAS_EXTENSION.requestedService, valueReference: { reference: parties.urls.medicationRequest } },
    ],
    sequence: 1,
    careTeamSequence: [1],
    ...(input.request.diagnoses.length > 0 && {
      diagnosisSequence: input.request.diagnoses.map((_, index) => index + 1),
    }),
    ...(documentCount > 0 && {
      informationSequence: Array.from({ length: documentCount }, (_, index) => index + 1),
    }),
    // X12 service type 1 (medical care) for a drug given in a clinic, 88 (pharmacy) for one dispensed.
    category: { coding: [{ system: SYSTEM.x12ServiceType, code: medical ? '1' : '88' }] },
    productOrService: productOrService(input),
    locationCodeableConcept: { coding: [{ system: SYSTEM.placeOfService, code: medical ? '11' : '01' }] },
    quantity: { value: input.request.prescription.quantity },
  };
}

/** A file asset is sent as the file it is; any other item as its JSON content. */
function attachmentOf(
  item: CaseEvidenceItem,
  attachments: Record<string, string>,
): { contentType: string; data: Buffer } {
  if (!item.asset)
    return { contentType: 'application/json', data: Buffer.from(JSON.stringify(item.content)) };
  const content = attachments[item.asset.document_id];
  if (content === undefined) throw new Error('A file asset of the request was not attached');
  return { contentType: item.asset.type, data: Buffer.from(content, 'base64') };
}

interface SupportingDocument {
  url: string;
  /** What the resource is within the case (`evidence-2`, `visit-note-1`, …), from which its url derives. */
  role: string;
  title: string;
  resource: Resource;
}

/** Evidence items and visit notes, by title and date; insurance card images never leave as supporting documents. */
function supportingDocuments(
  input: PriorAuthExchangeInput,
  options: PasRequestOptions,
): SupportingDocument[] {
  const patient = resourceUrn(input.caseId, 'patient');
  const evidence = input.request.evidence.map((item: CaseEvidenceItem, index) =>
    documentReference(input.caseId, evidenceRole(index), patient, {
      title: item.title,
      date: item.date_created,
      ...attachmentOf(item, input.attachments ?? {}),
    }),
  );
  const notes = input.request.visit_notes.map((note: VisitNote, index) =>
    documentReference(input.caseId, `visit-note-${index + 1}`, patient, {
      title: 'Visit note',
      date: note.created_at,
      contentType: 'text/plain',
      data: Buffer.from(note.content),
      loinc: '11506-3',
    }),
  );
  return [...evidence, ...notes, ...questionnaireResponse(input, patient, options)];
}

/**
 * The payer's questionnaire as the case answered it (DTR), which DTR sends in the Claim's
 * supportingInfo. Proposed answers nobody confirmed never leave; a questionnaire the payer's service
 * could not give (no items) sends nothing.
 */
function questionnaireResponse(
  input: PriorAuthExchangeInput,
  patient: string,
  { sentAt }: PasRequestOptions,
): SupportingDocument[] {
  const { questionnaire } = input;
  if (!questionnaire || questionnaire.items.length === 0) return [];
  const url = resourceUrn(input.caseId, 'questionnaire-response');
  const response = questionnaireResponseOf(questionnaire.canonical, questionnaire.items, {
    subject: { reference: patient },
    // DTR's qr-context: the order and the coverage it documents, both entries of the same Bundle.
    context: [
      { reference: resourceUrn(input.caseId, 'medication-request'), type: 'MedicationRequest' },
      { reference: resourceUrn(input.caseId, 'coverage'), type: 'Coverage' },
    ],
    authored: sentAt.toISOString(),
    status: questionnaire.status === 'completed' ? 'completed' : 'in-progress',
  });
  return [
    {
      url,
      role: 'questionnaire-response',
      title: questionnaire.title ?? "The payer's questionnaire",
      resource: { ...response, id: idOf(url) },
    },
  ];
}

function evidenceRole(index: number): string {
  return `evidence-${index + 1}`;
}

function answersDocument(
  input: PriorAuthInformationInput,
  round: number,
  patient: string,
  options: PasRequestOptions,
): SupportingDocument {
  const role = `information-answers-${round}`;
  const url = resourceUrn(input.caseId, role);
  return {
    url,
    role,
    title: 'Answers to the payer information request',
    resource: {
      resourceType: 'QuestionnaireResponse',
      id: idOf(url),
      status: 'completed',
      subject: { reference: patient },
      authored: options.sentAt.toISOString(),
      item: input.answers.map((answer: InformationAnswer) => ({
        linkId: answer.question_id,
        answer: [{ valueString: answer.answer }],
      })),
    },
  };
}

/**
 * PAS 2.0.1 profiles no DocumentReference (2.1 adds one), and US Core's, which its Claim's
 * additionalInformation names beside any Resource, is not claimed: the document is base FHIR.
 */
function documentReference(
  caseId: string,
  role: string,
  patient: string,
  document: { title: string; date: string; contentType: string; data: Buffer; loinc?: string },
): SupportingDocument {
  const url = resourceUrn(caseId, role);
  return {
    url,
    role,
    title: document.title,
    resource: {
      resourceType: 'DocumentReference',
      id: idOf(url),
      status: 'current',
      type: document.loinc
        ? { coding: [{ system: SYSTEM.loinc, code: document.loinc }], text: document.title }
        : { text: document.title },
      category: [{ coding: [{ system: SYSTEM.documentCategory, code: 'clinical-note' }] }],
      subject: { reference: patient },
      description: document.title,
      content: [
        {
          attachment: {
            contentType: document.contentType,
            data: document.data.toString('base64'),
            title: document.title,
          },
        },
      ],
      context: { period: { start: document.date } },
    },
  };
}

function additionalInformation(sequence: number, document: SupportingDocument) {
  return {
    extension: [
      {
        url: PAS_EXTENSION.documentInformation,
        extension: [
          {
            url: 'reportTypeCode',
            valueCodeableConcept: { coding: [{ system: SYSTEM.x12ReportType, code: 'PY' }] },
          },
          {
            url: 'transmissionMethod',
            valueCodeableConcept: { coding: [{ system: SYSTEM.x12ReportTransmission, code: 'EL' }] },
          },
          { url: 'description', valueString: document.title },
        ],
      },
    ] as Resource[],
    sequence,
    category: { coding: [{ system: SYSTEM.pasTempCodes, code: 'additionalInformation' }] },
    valueReference: { reference: document.url },
  };
}

function bundle(
  caseId: string,
  role: string,
  profile: string,
  options: PasRequestOptions,
  entries: Array<readonly [string, Resource]>,
): string {
  return JSON.stringify({
    resourceType: 'Bundle',
    id: idOf(resourceUrn(caseId, `bundle-${role}`)),
    meta: { profile: [profile] },
    identifier: { system: SYSTEM.caseIdentifier, value: `${caseId}-${role}` },
    type: 'collection',
    timestamp: options.sentAt.toISOString(),
    entry: entries.map(([fullUrl, resource]) => ({ fullUrl, resource })),
  });
}

/** HCPCS when the catalog bills the drug under one (medical benefit), else its NDC, else its name. */
function productOrService(input: PriorAuthExchangeInput) {
  const drug = catalogDrug(input);
  if (drug?.hcpcs_code) return { coding: [{ system: SYSTEM.hcpcs, code: drug.hcpcs_code }] };
  const ndc = ndcOf(input);
  if (ndc) return { coding: [{ system: SYSTEM.ndc, code: ndc }] };
  return { text: input.request.prescription.drug_name ?? 'Medication' };
}

function catalogDrug(input: PriorAuthExchangeInput) {
  const { drug_name: name, ndc } = input.request.prescription;
  return shippedPayerCatalog().findDrug({ name, ndc });
}

function medicalBenefit(input: PriorAuthExchangeInput): boolean {
  return shippedPayerCatalog().prescribedDrugBenefit(input.request.prescription) === 'medical';
}

function ndcOf(input: PriorAuthExchangeInput): string | undefined {
  const requested = input.request.prescription.ndc;
  return requested ? normalizeNdc(requested) : catalogDrug(input)?.ndc;
}

/**
 * The patient's record number at the account (what CRD's Patient carries too), which PAS's
 * beneficiary needs beside or instead of a member id: it asks for one identifier at least, each with
 * its `system`.
 */
export function medicalRecordIdentifier(accountId: string, patient: { internal_id: string }) {
  return {
    type: { coding: [{ system: SYSTEM.identifierType, code: 'MR' }] },
    system: `urn:healthcare-access-api:${accountId}:patient`,
    value: patient.internal_id,
  };
}

/**
 * The member id, in the payer's namespace: US Core and PAS require every identifier's `system`, and a
 * member id means something only to its payer.
 */
export function memberIdentifier(payerId: string, memberId: string) {
  return {
    type: { coding: [{ system: SYSTEM.identifierType, code: 'MB' }] },
    system: `urn:healthcare-access-api:payer:${payerId}:member`,
    value: memberId,
  };
}

/**
 * When the order was written, as PAS's MedicationRequest requires: when the case that asks for it was
 * made, which its id records. The same for every Bundle of the case, so the order, whose id never
 * changes, never changes either. An id not of that shape (none the service makes) falls back to
 * when the Bundle is sent.
 */
function authoredOn(input: PriorAuthExchangeInput, { sentAt }: PasRequestOptions): string {
  return (createdAtOfId(input.caseId) ?? sentAt).toISOString();
}

/** The payer's reference for the request, as a Claim's `related.reference` names it. */
function payerReference(input: PriorAuthInquiryInput | PriorAuthInformationInput) {
  return { system: SYSTEM.payerReference, value: input.payer_reference };
}

function caseIdentifier(caseId: string) {
  return { system: SYSTEM.caseIdentifier, value: caseId };
}

/** What is to be dispensed, as a MedicationRequest states it: the quantity and the days it lasts. */
export function dispenseRequest(prescription: Prescription) {
  return {
    quantity: { value: prescription.quantity },
    ...(prescription.days_supply && {
      expectedSupplyDuration: {
        value: prescription.days_supply,
        unit: 'days',
        system: SYSTEM.ucum,
        code: 'd',
      },
    }),
  };
}

export function diagnosisConcept(diagnosis: Diagnosis) {
  return {
    coding: [
      {
        system: SYSTEM.icd10cm,
        code: diagnosis.code,
        ...(diagnosis.description && { display: diagnosis.description }),
      },
    ],
  };
}

export function address(value: NonNullable<PriorAuthExchangeInput['request']['patient']['address']>) {
  return {
    line: [value.street, value.street_line_2].filter((line): line is string => Boolean(line)),
    city: value.city,
    state: value.state_province,
    postalCode: value.zip_postal_code,
    country: value.country,
  };
}

export function telecom(phone: string | undefined, fax: string | undefined) {
  const points = [
    ...(phone ? [{ system: 'phone', value: phone }] : []),
    ...(fax ? [{ system: 'fax', value: fax }] : []),
  ];
  return points.length > 0 ? points : undefined;
}

const FHIR_GENDER = { male: 'male', female: 'female', other: 'other', not_specified: 'unknown' } as const;

function idOf(urn: string): string {
  return urn.slice('urn:uuid:'.length);
}
