/**
 * The CDS Hooks 2.0 documents of a Da Vinci CRD (STU 2.0.1) `order-sign` call, as far as this
 * connector writes and reads them (https://cds-hooks.hl7.org/2.0/, hl7.org/fhir/us/davinci-crd/STU2).
 */

const CRD = 'http://hl7.org/fhir/us/davinci-crd';

export const CRD_PROFILE = {
  medicationRequest: `${CRD}/StructureDefinition/profile-medicationrequest`,
  coverage: `${CRD}/StructureDefinition/profile-coverage`,
  patient: `${CRD}/StructureDefinition/profile-patient`,
  practitioner: `${CRD}/StructureDefinition/profile-practitioner`,
} as const;

/** Where a CRD service puts its coverage assertion about an order. */
export const COVERAGE_INFORMATION_EXTENSION = `${CRD}/StructureDefinition/ext-coverage-information`;

export type FhirResource = { resourceType: string; id: string } & Record<string, unknown>;

export interface FhirBundle {
  resourceType: 'Bundle';
  type: 'collection' | 'searchset';
  total?: number;
  entry: Array<{ resource: FhirResource; search?: { mode: 'match' } }>;
}

/**
 * An `order-sign` call. It names no `fhirServer`: we expose no FHIR endpoint to the payer, so all it
 * may need travels as prefetch, under the keys of the CRD order-sign service's prefetch templates.
 */
export interface CdsHooksRequest {
  hook: 'order-sign';
  hookInstance: string;
  context: {
    /** `Practitioner/<id>`: the clinician about to sign. */
    userId: string;
    patientId: string;
    draftOrders: FhirBundle;
  };
  prefetch: {
    /** `Patient/{{context.patientId}}` */
    patient: FhirResource;
    /** `Coverage?patient={{context.patientId}}&status=active`: a search result Bundle. */
    coverage: FhirBundle;
    /** `{{context.userId}}` */
    user: FhirResource;
  };
}

export interface CdsHooksAction {
  type: 'create' | 'update' | 'delete';
  description: string;
  resource?: FhirResource;
}

export interface CdsHooksCard {
  uuid?: string;
  /** At most 140 characters. */
  summary: string;
  /** Markdown. */
  detail?: string;
  indicator: 'info' | 'warning' | 'critical';
  source: { label: string; url?: string };
  suggestions?: Array<{ label: string; uuid?: string; actions?: CdsHooksAction[] }>;
}

export interface CdsHooksResponse {
  cards: CdsHooksCard[];
  systemActions?: CdsHooksAction[];
}
