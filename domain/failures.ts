/**
 * The failure taxonomy: every failure type an activity or workflow raises (the `type` of a Temporal
 * ApplicationFailure, which retry policies, workflows and the HTTP edge branch on), and every `code` a
 * case's `failure` can show. Messages never quote patient data: failures reach history and logs.
 */

/** A payer call failed in a way that may pass (timeout, 5xx, throttling): retried, then the case fails. */
export const PAYER_UNAVAILABLE = 'PayerUnavailable';
/** The payer refused the request itself (bad credentials, a malformed or unsupported request): never retried. */
export const PAYER_REJECTED = 'PayerRejected';
/**
 * The payer answered something the connector cannot read (not its protocol's shape, or a code it
 * does not act on): never retried when the call cannot be repeated (a submission), and the case says
 * the answer could not be read rather than that the payer refused.
 */
export const PAYER_ANSWER_UNREADABLE = 'PayerAnswerUnreadable';
/** A program hub call failed in a way that may pass: retried, then the case fails. */
export const PROGRAM_HUB_UNAVAILABLE = 'ProgramHubUnavailable';
/** The program hub refused the request itself: never retried. */
export const PROGRAM_HUB_REJECTED = 'ProgramHubRejected';

/**
 * The failure type of a clinical evaluation (criteria engine or PA prefill) stopped at its time limit.
 * Activities raise it non-retryably; workflows carry it into the case's `failure`.
 */
export const CLINICAL_EVALUATION_TIMED_OUT = 'ClinicalEvaluationTimedOut';
/** The attempt's deadline passed before the clinical evaluation ran or finished: retried with a fresh deadline. */
export const CLINICAL_EVALUATION_DEADLINE_PASSED = 'ClinicalEvaluationDeadlinePassed';
/** No clinical evaluation thread could start, so the task was not run: retried, as a passed deadline is. */
export const CLINICAL_EVALUATION_UNAVAILABLE = 'ClinicalEvaluationUnavailable';
/** The database could not be reached or did not answer in time (the error's name, so Temporal's type): retried. */
export const DATABASE_UNAVAILABLE = 'DatabaseUnavailableError';

/** Failure type of a decision that does not fit the case's status: the API answers 409 invalid_state. */
export const INVALID_STATE = 'InvalidState';
/**
 * Failure type of an update whose body does not fit the case as the workflow holds it (a manual
 * result for a drug it did not request). The API checks the same rule, but only against the memo,
 * which can trail the workflow by a workflow task: the API answers 400 validation_error with the
 * failure's details, positions and rules only, never the values sent.
 */
export const DECISION_INVALID = 'DecisionInvalid';
/** Failure type of a case whose account binding does not verify: the case is refused before it publishes. */
export const ACCOUNT_BINDING_INVALID = 'AccountBindingInvalid';
/** Failure type of an update whose argument names another case. */
export const MESSAGE_FOR_ANOTHER_CASE = 'MessageForAnotherCase';
/** Failure type of a workflow started, or an update sent, without the payload codec. */
export const UNENCRYPTED_INPUT = 'UnencryptedInput';

/** The receiver answered 410 Gone: the endpoint is deactivated and the delivery ends. */
/**
 * Mail to a prescriber that cannot be sent (live mode names no mail connector, its certificate is not
 * trusted, or SMTP refused the message for good): the authorization workflow goes on without it.
 */
export const AUTHORIZATION_MAIL_NOT_SENT = 'AuthorizationMailNotSent';
/** A provider authorization workflow whose row the API removed after a start it could not confirm: it ends. */
export const AUTHORIZATION_WITHDRAWN = 'AuthorizationWithdrawn';
export const WEBHOOK_ENDPOINT_GONE = 'WebhookEndpointGone';
/** The endpoint was deleted or deactivated while the delivery was pending. */
export const WEBHOOK_DELIVERY_ABANDONED = 'WebhookDeliveryAbandoned';
/** One delivery attempt failed (no answer, a non-2xx status): retried on the published schedule. */
export const WEBHOOK_ATTEMPT_FAILED = 'WebhookAttemptFailed';

/** Failure types the delivery workflow's retry policy treats as final. */
export const FINAL_WEBHOOK_FAILURES = [WEBHOOK_ENDPOINT_GONE, WEBHOOK_DELIVERY_ABANDONED];

/**
 * Raised by a connector (payer, program hub) for a call that did not get an answer. `transient` says
 * whether trying again may help; `retryAfterMs` passes on how long the other side asked to wait. The
 * message is for operators and must not quote the request: it reaches workflow history.
 */
export class ConnectorError extends Error {
  readonly transient: boolean;
  readonly retryAfterMs?: number;
  /** The other side answered, but not in a way the connector can read. */
  readonly answerUnreadable: boolean;

  constructor(
    message: string,
    options: { transient: boolean; retryAfterMs?: number; answerUnreadable?: boolean },
  ) {
    super(message);
    this.name = 'ConnectorError';
    this.transient = options.transient;
    this.retryAfterMs = options.retryAfterMs;
    this.answerUnreadable = options.answerUnreadable ?? false;
  }
}

/** The `code` of a case's `failure`: what a failed case tells its submitter went wrong. */
export const CASE_FAILURE_CODE = {
  payerUnavailable: 'payer_unavailable',
  payerRejected: 'payer_rejected',
  programUnavailable: 'program_unavailable',
  programRejected: 'program_rejected',
  clinicalEvaluationTimedOut: 'clinical_evaluation_timed_out',
  evaluationFailed: 'evaluation_failed',
  reviewExpired: 'review_expired',
  rejectedAtReview: 'rejected_at_review',
  manualVerificationFailed: 'manual_verification_failed',
  ineligible: 'ineligible',
  informationExpired: 'information_expired',
  programDenied: 'program_denied',
  programInconclusive: 'program_inconclusive',
  /** An operator ended a case waiting out an outage (`failNow`); `failure.message` says why. */
  failedByOperator: 'failed_by_operator',
  /** The payer did not accept a prior authorization for review; `failure.message` is its reason. */
  notSubmitted: 'not_submitted',
  /** The case had only card images or PDFs, and no card field could be read from them. */
  insuranceCardUnreadable: 'insurance_card_unreadable',
  /** The case had only card images or PDFs, and their member id could not be read with confidence. */
  insuranceCardMemberIdUnreadable: 'insurance_card_member_id_unreadable',
  /** The case had only documents that read clearly, and none of them is an insurance card. */
  insuranceDocumentNotACard: 'insurance_document_not_a_card',
} as const;

export type CaseFailureCode = (typeof CASE_FAILURE_CODE)[keyof typeof CASE_FAILURE_CODE];
