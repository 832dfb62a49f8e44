/**
 * The code systems and codes of the Da Vinci PAS implementation guide (STU 2,
 * https://hl7.org/fhir/us/davinci-pas/) that the connector writes and reads.
 */

const PAS = 'http://hl7.org/fhir/us/davinci-pas';

export const PAS_PROFILE = {
  requestBundle: `${PAS}/StructureDefinition/profile-pas-request-bundle`,
  inquiryRequestBundle: `${PAS}/StructureDefinition/profile-pas-inquiry-request-bundle`,
  responseBundle: `${PAS}/StructureDefinition/profile-pas-response-bundle`,
  claim: `${PAS}/StructureDefinition/profile-claim`,
  claimUpdate: `${PAS}/StructureDefinition/profile-claim-update`,
  claimInquiry: `${PAS}/StructureDefinition/profile-claim-inquiry`,
  claimResponse: `${PAS}/StructureDefinition/profile-claimresponse`,
  beneficiary: `${PAS}/StructureDefinition/profile-beneficiary`,
  coverage: `${PAS}/StructureDefinition/profile-coverage`,
  insurer: `${PAS}/StructureDefinition/profile-insurer`,
  practitioner: `${PAS}/StructureDefinition/profile-practitioner`,
  practitionerRole: `${PAS}/StructureDefinition/profile-practitionerrole`,
  medicationRequest: `${PAS}/StructureDefinition/profile-medicationrequest`,
  communicationRequest: `${PAS}/StructureDefinition/profile-communicationrequest`,
} as const;

export const PAS_EXTENSION = {
  reviewAction: `${PAS}/StructureDefinition/extension-reviewAction`,
  reviewActionCode: `${PAS}/StructureDefinition/extension-reviewActionCode`,
  itemPreAuthPeriod: `${PAS}/StructureDefinition/extension-itemPreAuthPeriod`,
  administrationReferenceNumber: `${PAS}/StructureDefinition/extension-administrationReferenceNumber`,
  itemAuthorizedDetail: `${PAS}/StructureDefinition/extension-itemAuthorizedDetail`,
  serviceItemRequestType: `${PAS}/StructureDefinition/extension-serviceItemRequestType`,
  certificationType: `${PAS}/StructureDefinition/extension-certificationType`,
  requestedService: `${PAS}/StructureDefinition/extension-requestedService`,
  levelOfServiceCode: `${PAS}/StructureDefinition/extension-levelOfServiceCode`,
  documentInformation: `${PAS}/StructureDefinition/extension-documentInformation`,
  infoChanged: `${PAS}/StructureDefinition/extension-infoChanged`,
  careTeamClaimScope: `${PAS}/StructureDefinition/extension-careTeamClaimScope`,
} as const;

export const SYSTEM = {
  pasTempCodes: `${PAS}/CodeSystem/PASTempCodes`,
  claimType: 'http://terminology.hl7.org/CodeSystem/claim-type',
  processPriority: 'http://terminology.hl7.org/CodeSystem/processpriority',
  adjudication: 'http://terminology.hl7.org/CodeSystem/adjudication',
  relatedClaimRelationship: 'http://terminology.hl7.org/CodeSystem/ex-relatedclaimrelationship',
  subscriberRelationship: 'http://terminology.hl7.org/CodeSystem/subscriber-relationship',
  coverageClass: 'http://terminology.hl7.org/CodeSystem/coverage-class',
  identifierType: 'http://terminology.hl7.org/CodeSystem/v2-0203',
  documentCategory: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category',
  icd10cm: 'http://hl7.org/fhir/sid/icd-10-cm',
  ndc: 'http://hl7.org/fhir/sid/ndc',
  hcpcs: 'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  npi: 'http://hl7.org/fhir/sid/us-npi',
  /** NUCC Health Care Provider Taxonomy: a PractitionerRole's specialty. */
  nuccTaxonomy: 'http://nucc.org/provider-taxonomy',
  loinc: 'http://loinc.org',
  ucum: 'http://unitsofmeasure.org',
  placeOfService: 'https://www.cms.gov/Medicare/Coding/place-of-service-codes/Place_of_Service_Code_Set',
  /** X12 306: Health Care Services Review action (HCR01). */
  x12ReviewAction: 'https://codesystem.x12.org/005010/306',
  /** X12 901: reject reason (AAA03). */
  x12RejectReason: 'https://codesystem.x12.org/005010/901',
  /** X12 1365: service type code (UM03 / SV). */
  x12ServiceType: 'https://codesystem.x12.org/005010/1365',
  /** X12 1525: request category (UM01). */
  x12RequestCategory: 'https://codesystem.x12.org/005010/1525',
  /** X12 1322: certification type (UM02). */
  x12CertificationType: 'https://codesystem.x12.org/005010/1322',
  /** X12 1338: level of service (UM06). */
  x12LevelOfService: 'https://codesystem.x12.org/005010/1338',
  /** X12 755: report type code (PWK01). */
  x12ReportType: 'https://codesystem.x12.org/005010/755',
  /** X12 756: report transmission code (PWK02). */
  x12ReportTransmission: 'https://codesystem.x12.org/005010/756',
  /** Our claim identifiers: the case id, opaque and free of PHI. */
  caseIdentifier: 'urn:healthcare-access-api:prior-authorization',
  /** The payer's reference for a request, as an inquiry names it. */
  payerReference: 'urn:healthcare-access-api:payer-reference',
  /** Our determination detail codes, carried beside the X12 codes so our own sandbox round-trips them. */
  determinationDetail: 'urn:healthcare-access-api:determination-detail',
  /** Our not-submitted reason codes, likewise. */
  notSubmittedReason: 'urn:healthcare-access-api:not-submitted-reason',
} as const;

/** What an X12 306 review action (HCR01) tells the case. */
export type ReviewActionMeaning =
  | {
      kind: 'determined';
      result: 'approved' | 'denied' | 'partially_approved' | 'other';
      detail_code: string;
      detail: string;
    }
  | { kind: 'pended' };

/**
 * X12 306 codes the 278 response (and so PAS) uses in HCR01. A2 ("certified, partial") and A6
 * ("modified") both approve less or other than asked, which the case calls partially approved. NA
 * ("no action required") says the service needs no authorization, which the case records as an
 * approval with detail `prior_auth_not_required`, as the sandbox does for a drug without PA.
 */
export const REVIEW_ACTIONS: Readonly<Record<string, ReviewActionMeaning>> = {
  A1: {
    kind: 'determined',
    result: 'approved',
    detail_code: 'approval',
    detail: 'The payer certified the request in total.',
  },
  A2: {
    kind: 'determined',
    result: 'partially_approved',
    detail_code: 'certified_partial',
    detail: 'The payer certified part of the request.',
  },
  A3: {
    kind: 'determined',
    result: 'denied',
    detail_code: 'not_certified',
    detail: 'The payer did not certify the request.',
  },
  A4: { kind: 'pended' },
  A6: {
    kind: 'determined',
    result: 'partially_approved',
    detail_code: 'modified',
    detail: 'The payer certified the request with modifications.',
  },
  C: {
    kind: 'determined',
    result: 'other',
    detail_code: 'cancelled',
    detail: 'The payer cancelled the request.',
  },
  CT: {
    kind: 'determined',
    result: 'other',
    detail_code: 'contact_payer',
    detail: 'The payer asks the provider to contact it about the request.',
  },
  D: { kind: 'pended' },
  NA: {
    kind: 'determined',
    result: 'approved',
    detail_code: 'prior_auth_not_required',
    detail: 'The payer needs no prior authorization for this service.',
  },
};

/** The review action our writer states for each determination result. */
export const REVIEW_ACTION_OF_RESULT = {
  approved: 'A1',
  partially_approved: 'A2',
  denied: 'A3',
  other: 'CT',
} as const;

/** The pended review action. */
export const PENDED_REVIEW_ACTION = 'A4';
