import type {
  CasePatient,
  Diagnosis,
  DocumentRef,
  InsuranceContent,
  MockOutage,
  Provider,
} from './case-model';

export interface DrugRequest {
  name?: string;
  ndc?: string;
  dosage?: string;
  quantity: number;
}

/** A benefit verification request as the case keeps it: card images replaced by references. */
export interface BenefitVerificationRequest {
  patient: CasePatient;
  drugs: DrugRequest[];
  provider: Provider;
  insurance: DocumentRef[];
  insurance_content: InsuranceContent | null;
  diagnoses: Diagnosis[];
  mock_result: { status: 'completed' | 'failed'; case?: string; outage?: MockOutage } | null;
}
