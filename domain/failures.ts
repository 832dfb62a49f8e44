/**
 * The failure type of a clinical evaluation (criteria engine or PA prefill) stopped at its time limit.
 * Activities raise it non-retryably; workflows carry it into the case's `failure`.
 */
export const CLINICAL_EVALUATION_TIMED_OUT = 'ClinicalEvaluationTimedOut';
