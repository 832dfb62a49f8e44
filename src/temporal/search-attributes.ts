/**
 * Custom search attributes the service filters cases by. Values are ids, enums and keyed hashes:
 * visibility stores them in plaintext, so no PHI may ever be written to one.
 */
export const CUSTOM_SEARCH_ATTRIBUTES = {
  AccountId: 'Keyword',
  CaseType: 'Keyword',
  CaseStatus: 'Keyword',
  PatientRef: 'Keyword',
} as const;
