import type { PriorAuthorizationRequest } from '../cases/prior-authorization-request';
import type { CriterionAnswer, ResolvedPlan } from './payer-connector';
import type { CaseQuestionnaire } from '../dtr/questionnaire';
import type { PrescriberRegistryCheck } from '../providers/prescriber-registry';

/**
 * How a prior authorization travels between a case and a payer, whatever carries it: a Da Vinci PAS
 * endpoint (medical-benefit drugs, live mode), the sandbox's simulated payer through the same PAS
 * code path (test mode), or an NCPDP SCRIPT ePA client (pharmacy-benefit drugs, not yet built).
 * Workflows see only these types; the wire formats stay in infrastructure/connectors.
 */

/** The payer's determination results. `other` is a determination only with a detail code saying what. */
export const PAYER_DETERMINATION_RESULTS = ['approved', 'denied', 'partially_approved', 'other'] as const;
export type PayerDeterminationResult = (typeof PAYER_DETERMINATION_RESULTS)[number];

/** One question of a payer's request for more information. */
export interface InformationQuestion {
  /** The payer's own id for the question (PAS: the ClaimResponse communicationRequest or item's). */
  id: string;
  text: string;
}

/** A payer's request for more information: what is asked and by when the provider must answer. */
export interface InformationRequest {
  kind: 'information_requested';
  questions: InformationQuestion[];
  /** ISO 8601; when the payer stops waiting for the answer. */
  due_at: string;
}

/** What the payer decided, as a case records it. */
export interface PayerDetermination {
  result: PayerDeterminationResult;
  detail_code: string;
  detail: string;
  decided_at: string;
  /** The payer's authorization number (PAS: ClaimResponse.preAuthRef); null unless approved. */
  authorization_number: string | null;
  /** What the payer approved, which a partial approval sets below the requested quantity. */
  approved_quantity: number | null;
  authorization_start_date: string | null;
  authorization_expiration: string | null;
}

/**
 * A payer's answer to a submission, an inquiry or an answered information request:
 * - `pended`: received and under review, perhaps waiting for the information it asks for;
 * - `determined`: decided;
 * - `not_submitted`: the payer did not accept the request for review (member not found, the payer
 *   does not take PA for this item, …); `reason` is the payer's, free of PHI.
 */
export type PayerPriorAuthAnswer =
  | { kind: 'pended'; payer_reference: string; information_request: InformationRequest | null }
  | { kind: 'determined'; payer_reference: string; determination: PayerDetermination }
  | { kind: 'not_submitted'; payer_reference: string | null; reason_code: string; reason: string };

/** What the sandbox's `mock_result` can force the simulated payer to answer. */
export const PRIOR_AUTH_MOCK_RESULTS = [
  'approved',
  'denied',
  'partially_approved',
  'other',
  'not_submitted',
] as const;
export type PriorAuthMockResult = (typeof PRIOR_AUTH_MOCK_RESULTS)[number];

/** Everything a payer channel needs to file the request; card documents are never sent. */
export interface PriorAuthExchangeInput {
  /** Opaque, free of PHI: the PAS Claim identifier and a real connector's idempotency key. */
  caseId: string;
  accountId: string;
  livemode: boolean;
  request: PriorAuthorizationRequest;
  plan: ResolvedPlan | null;
  urgency: 'standard' | 'expedited';
  criteria: CriterionAnswer[];
  /**
   * The bytes (base64) of the request's file evidence, by document id: added by the activity that
   * sends the request, so they never pass through workflow history.
   */
  attachments?: Record<string, string>;
  /**
   * The payer's questionnaire as the case answered it (DTR), sent as a QuestionnaireResponse in the
   * PAS Claim's supportingInfo; absent when the case had none.
   */
  questionnaire?: CaseQuestionnaire;
  /**
   * What the NPI registry said of the prescriber: a match lends the PAS Practitioner the practice
   * address and the PractitionerRole the taxonomy the request left out; absent on older cases.
   */
  prescriber?: PrescriberRegistryCheck;
}

/** The provider's answers to an information request, sent back to the payer. */
export interface InformationAnswer {
  question_id: string;
  answer: string;
}

export interface PriorAuthInquiryInput extends PriorAuthExchangeInput {
  payer_reference: string;
  /** How many inquiries came before this one; lets the simulator pend first, like a payer that takes a while. */
  inquiriesSoFar: number;
}

export interface PriorAuthInformationInput extends PriorAuthExchangeInput {
  payer_reference: string;
  answers: InformationAnswer[];
  /** Which information round this answer is (1, 2, …); each round's Bundle and resources get identifiers of their own. */
  round?: number;
  /** Indexes into `request.evidence` of the items this answer added, which the payer sees marked as added. */
  addedEvidence?: number[];
}

/** The boundary every payer channel implements. */
export interface PriorAuthorizationChannel {
  submit(input: PriorAuthExchangeInput): Promise<PayerPriorAuthAnswer>;
  inquire(input: PriorAuthInquiryInput): Promise<PayerPriorAuthAnswer>;
  answerInformationRequest(input: PriorAuthInformationInput): Promise<PayerPriorAuthAnswer>;
}
