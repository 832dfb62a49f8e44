import type {
  CaseEvidenceItem,
  CasePatient,
  Diagnosis,
  DocumentRef,
  InsuranceContent,
  MockOutage,
  Provider,
  Questionnaire,
  VisitNote,
} from './case-model';

export interface Prescription {
  drug_name?: string;
  ndc?: string;
  strength?: string;
  dosage?: string;
  quantity: number;
  days_supply?: number;
  directions?: string;
}

/** A prior authorization request as the case keeps it: documents replaced by references. */
export interface PriorAuthorizationRequest {
  patient: CasePatient;
  diagnoses: Diagnosis[];
  prescription: Prescription;
  provider: Provider;
  insurance: DocumentRef[];
  insurance_content: InsuranceContent | null;
  evidence: CaseEvidenceItem[];
  questionnaires: Questionnaire[];
  visit_notes: VisitNote[];
  is_training_data: boolean;
  urgency: 'standard' | 'expedited';
  /**
   * The sandbox's forced answers: the payer's determination, one of PRIOR_AUTH_MOCK_RESULTS
   * (payers/prior-authorization-exchange.ts), and its CRD service's, each independent of the other.
   */
  mock_result: {
    result?: 'approved' | 'denied' | 'partially_approved' | 'other' | 'not_submitted';
    detail_code?: string;
    outage?: MockOutage;
    /** The sandbox CRD service's answer: one of MOCK_COVERAGE_REQUIREMENTS (payers/coverage-requirements.ts). */
    coverage_requirements?: 'no-auth' | 'auth-needed' | 'unavailable';
  } | null;
}
