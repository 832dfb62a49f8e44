import type { CoverageRequirementsQuery } from '../../../domain/payers/coverage-requirements';
import { normalizeNdc } from '../../../domain/payers/payer-catalog';
import { prescriberForPayer } from '../../../domain/providers/prescriber-registry';
import { shippedPayerCatalog } from '../../catalogs/shipped-catalogs';
import { SYSTEM } from '../pas/pas-codes';
import {
  address,
  diagnosisConcept,
  dispenseRequest,
  medicalRecordIdentifier,
  memberIdentifier,
  resourceUrn,
  telecom,
} from '../pas/pas-request';
import { CRD_PROFILE } from './cds-hooks';
import type { CdsHooksRequest, FhirResource } from './cds-hooks';

/**
 * Writes the CDS Hooks `order-sign` request that asks a payer's CRD service what the case's order
 * needs: the MedicationRequest as the draft order, with the Patient, the Coverage and the prescriber
 * as prefetch, each on its CRD 2.0.1 profile.
 *
 * Deterministic: resource ids derive from the case id and the resource's role, the same ids the PAS
 * Bundle gives them, so the payer sees one patient, coverage and order across CRD and PAS, and an id
 * never carries PHI.
 */

/** The ids of the draft order and the coverage a case's `order-sign` call names. */
export interface OrderSignSubject {
  orderId: string;
  coverageId: string;
}

export function orderSignSubject(caseId: string): OrderSignSubject {
  return { orderId: resourceId(caseId, 'medication-request'), coverageId: resourceId(caseId, 'coverage') };
}

/** One hook instance per case, so a retried call is recognisably the same call. */
export function hookInstanceOf(caseId: string): string {
  return resourceId(caseId, 'crd-order-sign');
}

export function orderSignRequest(
  query: CoverageRequirementsQuery,
  hookInstance: string,
  signedAt: Date = new Date(),
): CdsHooksRequest {
  const ids = {
    patient: resourceId(query.caseId, 'patient'),
    practitioner: resourceId(query.caseId, 'practitioner'),
    ...orderSignSubject(query.caseId),
  };
  return {
    hook: 'order-sign',
    hookInstance,
    context: {
      userId: `Practitioner/${ids.practitioner}`,
      patientId: ids.patient,
      draftOrders: {
        resourceType: 'Bundle',
        type: 'collection',
        entry: [entryOf(medicationRequest(query, ids, signedAt))],
      },
    },
    prefetch: {
      patient: patient(query, ids.patient),
      coverage: {
        resourceType: 'Bundle',
        type: 'searchset',
        total: 1,
        entry: [{ ...entryOf(coverage(query, ids)), search: { mode: 'match' } }],
      },
      user: practitioner(query, ids.practitioner),
    },
  };
}

type Ids = OrderSignSubject & { patient: string; practitioner: string };

/** The case's identifier on the order: the payer may quote it back; it is opaque. */
const PLACER_IDENTIFIER_TYPE = {
  coding: [{ system: SYSTEM.identifierType, code: 'PLAC' }],
};

function medicationRequest(query: CoverageRequirementsQuery, ids: Ids, signedAt: Date): FhirResource {
  const { prescription, diagnoses } = query;
  const drug = shippedPayerCatalog().findDrug({ name: prescription.drug_name, ndc: prescription.ndc });
  const ndc = prescription.ndc ? normalizeNdc(prescription.ndc) : drug?.ndc;
  // A payer keys a medical-benefit drug by its HCPCS code, a pharmacy one by its NDC.
  const coding = [
    ...(ndc ? [{ system: SYSTEM.ndc, code: ndc }] : []),
    ...(drug?.hcpcs_code ? [{ system: SYSTEM.hcpcs, code: drug.hcpcs_code }] : []),
  ];
  const directions = prescription.directions ?? prescription.dosage;
  return {
    resourceType: 'MedicationRequest',
    id: ids.orderId,
    meta: { profile: [CRD_PROFILE.medicationRequest] },
    identifier: [{ type: PLACER_IDENTIFIER_TYPE, system: SYSTEM.caseIdentifier, value: query.caseId }],
    status: 'draft',
    intent: 'order',
    medicationCodeableConcept: {
      ...(coding.length > 0 && { coding }),
      text: [prescription.drug_name, prescription.strength].filter(Boolean).join(' ') || ndc || 'Medication',
    },
    subject: { reference: `Patient/${ids.patient}` },
    authoredOn: signedAt.toISOString(),
    requester: { reference: `Practitioner/${ids.practitioner}` },
    ...(diagnoses.length > 0 && { reasonCode: diagnoses.map(diagnosisConcept) }),
    ...(directions && { dosageInstruction: [{ text: directions }] }),
    dispenseRequest: dispenseRequest(prescription),
    insurance: [{ reference: `Coverage/${ids.coverageId}` }],
  };
}

const FHIR_GENDER = { male: 'male', female: 'female', other: 'other', not_specified: 'unknown' } as const;

/** US Core by way of CRD's profile, which asks for the clinic's record number (MR). */
function patient(query: CoverageRequirementsQuery, id: string): FhirResource {
  const { patient: person, plan } = query;
  return {
    resourceType: 'Patient',
    id,
    meta: { profile: [CRD_PROFILE.patient] },
    identifier: [
      medicalRecordIdentifier(query.accountId, person),
      ...(plan ? [memberIdentifier(plan.payer_id, plan.member_id)] : []),
    ],
    name: [{ family: person.last_name, given: [person.first_name] }],
    gender: FHIR_GENDER[person.gender],
    birthDate: person.date_of_birth,
    ...(person.address && { address: [address(person.address)] }),
  };
}

/**
 * The member's coverage as the case resolved its plan. The payer is named by its payer id and name
 * (a logical reference): the request carries no Organization, as CRD's coverage prefetch has none.
 */
function coverage(query: CoverageRequirementsQuery, ids: Ids): FhirResource {
  const { plan } = query;
  return {
    resourceType: 'Coverage',
    id: ids.coverageId,
    meta: { profile: [CRD_PROFILE.coverage] },
    ...(plan && {
      identifier: [memberIdentifier(plan.payer_id, plan.member_id)],
      subscriberId: plan.member_id,
    }),
    status: 'active',
    beneficiary: { reference: `Patient/${ids.patient}` },
    payor: [
      plan
        ? {
            identifier: {
              type: { coding: [{ system: SYSTEM.identifierType, code: 'NIIP' }] },
              value: plan.payer_id,
            },
            display: plan.payer_name,
          }
        : { display: 'Payer not identified' },
    ],
    ...(plan && {
      class: [
        ...(plan.rx_group ? [coverageClass('group', plan.rx_group)] : []),
        coverageClass('plan', plan.plan_id, plan.plan_name),
      ],
    }),
  };
}

/**
 * The prescriber, with the NPI registry's practice address where the request gives none. Only the
 * address: the registry's taxonomy would go on a PractitionerRole, which the profile validator
 * (without US Core) refuses as the order's requester, and which as `userId` would leave the
 * Practitioner out.
 */
function practitioner(query: CoverageRequirementsQuery, id: string): FhirResource {
  const provider = prescriberForPayer(query.provider, query.prescriber);
  const contact = telecom(provider.phone, provider.fax);
  return {
    resourceType: 'Practitioner',
    id,
    meta: { profile: [CRD_PROFILE.practitioner] },
    identifier: [{ system: SYSTEM.npi, value: provider.npi }],
    name: [{ family: provider.last_name, given: [provider.first_name] }],
    ...(contact && { telecom: contact }),
    ...(provider.address && { address: [address(provider.address)] }),
  };
}

function coverageClass(type: 'group' | 'plan', value: string, name?: string) {
  return {
    type: { coding: [{ system: SYSTEM.coverageClass, code: type }] },
    value,
    ...(name && { name }),
  };
}

/**
 * A Bundle entry with its fullUrl, which FHIR requires outside transactions: the `urn:uuid:` the PAS
 * Bundle gives the same resource (the call names no `fhirServer` to make it a URL on).
 */
function entryOf(resource: FhirResource) {
  return { fullUrl: `urn:uuid:${resource.id}`, resource };
}

/** A resource's id within a case: the name-based UUID the PAS Bundle gives the same role. */
function resourceId(caseId: string, role: string): string {
  return resourceUrn(caseId, role).slice('urn:uuid:'.length);
}
