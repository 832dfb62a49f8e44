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
import { callConnector } from './connector-failures';

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
      const evidence = await evidenceOf(insurance);
      return callConnector('payer', () => payer.resolvePlan(evidence));
    },

    async checkCaseBenefits(
      input: CaseInsurance & Omit<BenefitsCheckInput, 'insurance'> & { drugs: DrugRequest[] },
    ): Promise<BenefitsCheck> {
      const { documentIds, content, ...check } = input;
      const insurance = await evidenceOf({ documentIds, content });
      return callConnector('payer', () => payer.checkBenefits({ ...check, insurance }));
    },

    async prefillPriorAuthorization(input: PriorAuthPrefillInput): Promise<PriorAuthPrefill> {
      const deadline = attemptDeadline();
      return callConnector('payer', () => payer.prefillPriorAuthorization(input, { deadline }));
    },

    async submitPriorAuthorization(input: PriorAuthSubmissionInput): Promise<{ payer_reference: string }> {
      return callConnector('payer', () => payer.submitPriorAuthorization(input));
    },

    async checkPriorAuthDetermination(
      input: PriorAuthSubmissionInput & { payer_reference: string; checksSoFar: number },
    ): Promise<PriorAuthDetermination | null> {
      return callConnector('payer', () => payer.checkDetermination(input));
    },
  };
};
