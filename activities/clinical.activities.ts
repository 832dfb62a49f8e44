import type { CaseDocumentsRepository } from '../src/cases/case-documents.repository';
import type { ClinicalEligibilityRequest } from '../src/cases/case-model';
import type { ClinicalEligibilityOutcome, ClinicalEvidence } from '../src/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../src/clinical/criteria-engine';

/** File assets the engine can read as text; images and PDFs count only through their title. */
const TEXT_TYPES = /^(text\/|application\/json)/;

export interface ClinicalActivityDependencies {
  documents: CaseDocumentsRepository;
}

export const createClinicalActivities = ({ documents }: ClinicalActivityDependencies) => ({
  /**
   * Runs the criteria engine. Text assets are read here, inside the activity, so document contents
   * never pass through workflow history.
   */
  async evaluateClinicalEligibility(input: {
    request: ClinicalEligibilityRequest;
    asOf: string;
  }): Promise<ClinicalEligibilityOutcome> {
    const { request } = input;
    const evidence: ClinicalEvidence[] = [];
    for (const item of request.evidence) {
      const readable = item.asset && TEXT_TYPES.test(item.asset.fileType);
      const text = readable
        ? (await documents.read([item.asset!.document_id]))[0]!.toString('utf8')
        : undefined;
      evidence.push({ title: item.title, date_created: item.date_created, content: item.content, text });
    }
    return evaluateClinicalEligibility({
      patient: { date_of_birth: request.patient.date_of_birth, gender: request.patient.gender },
      asOf: input.asOf,
      drugs: request.drugs,
      diagnoses: request.diagnoses,
      questionnaires: request.questionnaires,
      visitNotes: request.visit_notes,
      evidence,
    });
  },
});
