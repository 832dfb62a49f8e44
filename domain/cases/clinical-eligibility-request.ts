import type { CaseEvidenceItem, CasePatient, InsuranceContent, Questionnaire, VisitNote } from './case-model';

/** A clinical eligibility request as the case keeps it: evidence files replaced by references. */
export interface ClinicalEligibilityRequest {
  patient: CasePatient;
  drugs: Array<{ name: string; dosage?: string; quantity: number }>;
  diagnoses: Array<{ code?: string; description?: string }>;
  questionnaires: Questionnaire[];
  visit_notes: VisitNote[];
  evidence: CaseEvidenceItem[];
  /**
   * The patient's insurance: its plan's formulary gives the criteria and the PA requirement. Absent in
   * requests made before it existed, and null when not given.
   */
  insurance_content?: InsuranceContent | null;
}
