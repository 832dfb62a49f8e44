import { defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';
import type {
  PriorAuthInformationAnswers,
  PriorAuthOutcomeInput,
  ReviewDecisionInput,
} from '../domain/cases/prior-authorization';
import type { QuestionnaireAnswers } from '../domain/dtr/questionnaire';

/** A prior authorization's decisions, under the names Temporal sees. */
export const reviewDecisionSignal = defineSignal<[ReviewDecisionInput]>('reviewDecision');
export const submitReviewDecisionUpdate = defineUpdate<CaseRecord, [ReviewDecisionInput]>(
  'submitReviewDecision',
);
export const priorAuthorizationOutcomeSignal =
  defineSignal<[PriorAuthOutcomeInput]>('priorAuthorizationOutcome');
export const submitPriorAuthorizationOutcomeUpdate = defineUpdate<CaseRecord, [PriorAuthOutcomeInput]>(
  'submitPriorAuthorizationOutcome',
);
/** The provider's answers to the payer's information request; accepted only while one is pending. */
export const priorAuthorizationInformationSignal = defineSignal<[PriorAuthInformationAnswers]>(
  'priorAuthorizationInformation',
);
export const submitPriorAuthorizationInformationUpdate = defineUpdate<
  CaseRecord,
  [PriorAuthInformationAnswers]
>('submitPriorAuthorizationInformation');
/** Answers to the payer's questionnaire (DTR); accepted while the case awaits review. */
export const payerQuestionnaireAnswersSignal =
  defineSignal<[QuestionnaireAnswers]>('payerQuestionnaireAnswers');
export const submitPayerQuestionnaireAnswersUpdate = defineUpdate<CaseRecord, [QuestionnaireAnswers]>(
  'submitPayerQuestionnaireAnswers',
);
