import type { DrugRequest, InsuranceContent } from '../domain/cases/case-model';
import type {
  BenefitsCheck,
  BenefitsCheckInput,
  InsuranceEvidence,
  PayerConnector,
  PlanResolution,
  PriorAuthDetermination,
  PriorAuthPrefill,
  PriorAuthPrefillInput,
  PriorAuthSubmissionInput,
} from '../domain/payers/payer-connector';
import type { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import { attemptDeadline } from './attempt-deadline';

export interface CaseActivityDependencies {
  payer: PayerConnector;
  documents: CaseDocumentsRepository;
}

/** Where a case's insurance data lives: discrete fields, and card documents by id. */
export interface CaseInsurance {
  documentIds: string[];
  content: InsuranceContent | null;
}

/**
 * The payer calls of case workflows. Card documents are read here, inside the activity, so their
 * contents never pass through workflow history.
 */
export const createCaseActivities = ({ payer, documents }: CaseActivityDependencies) => {
  const evidenceOf = async (insurance: CaseInsurance): Promise<InsuranceEvidence> => ({
    content: insurance.content ?? undefined,
    cardTexts: (await documents.read(insurance.documentIds)).map((bytes) => bytes.toString('utf8')),
  });

  return {
    async resolveCasePlan(insurance: CaseInsurance): Promise<PlanResolution> {
      return payer.resolvePlan(await evidenceOf(insurance));
    },

    async checkCaseBenefits(
      input: CaseInsurance & Omit<BenefitsCheckInput, 'insurance'> & { drugs: DrugRequest[] },
    ): Promise<BenefitsCheck> {
      const { documentIds, content, ...check } = input;
      return payer.checkBenefits({ ...check, insurance: await evidenceOf({ documentIds, content }) });
    },

    async prefillPriorAuthorization(input: PriorAuthPrefillInput): Promise<PriorAuthPrefill> {
      return payer.prefillPriorAuthorization(input, { deadline: attemptDeadline() });
    },

    async submitPriorAuthorization(input: PriorAuthSubmissionInput): Promise<{ payer_reference: string }> {
      return payer.submitPriorAuthorization(input);
    },

    async checkPriorAuthDetermination(
      input: PriorAuthSubmissionInput & { payer_reference: string; checksSoFar: number },
    ): Promise<PriorAuthDetermination | null> {
      return payer.checkDetermination(input);
    },
  };
};
