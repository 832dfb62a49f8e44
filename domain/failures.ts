/**
 * The failure type of a clinical evaluation (criteria engine or PA prefill) stopped at its time limit.
 * Activities raise it non-retryably; workflows carry it into the case's `failure`.
 */
export const CLINICAL_EVALUATION_TIMED_OUT = 'ClinicalEvaluationTimedOut';

/** Failure type of a decision that does not fit the case's status: the API answers 409 invalid_state. */
export const INVALID_STATE = 'InvalidState';
