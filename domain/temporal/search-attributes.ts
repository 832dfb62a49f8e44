import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes the service filters cases by. Visibility stores them in plaintext, so
 * values are ids, enums and keyed hashes only: never PHI. Workflows set them; the API queries them.
 */
export const ACCOUNT_ID = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const CASE_TYPE = defineSearchAttributeKey('CaseType', SearchAttributeType.KEYWORD);
export const CASE_STATUS = defineSearchAttributeKey('CaseStatus', SearchAttributeType.KEYWORD);
export const PATIENT_REF = defineSearchAttributeKey('PatientRef', SearchAttributeType.KEYWORD);
/** The `attention` reason of a case waiting out a connector outage (`payer_unavailable`, …); unset otherwise. */
export const CASE_ATTENTION = defineSearchAttributeKey('CaseAttention', SearchAttributeType.KEYWORD);

/** Name → Temporal type, for registering them on a server. */
export const CUSTOM_SEARCH_ATTRIBUTES = {
  [ACCOUNT_ID.name]: 'Keyword',
  [CASE_TYPE.name]: 'Keyword',
  [CASE_STATUS.name]: 'Keyword',
  [PATIENT_REF.name]: 'Keyword',
  [CASE_ATTENTION.name]: 'Keyword',
} as const;
