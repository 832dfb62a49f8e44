/**
 * The outside systems an account connects for live mode: a clearinghouse for X12 270/271
 * eligibility (benefit verification), a Da Vinci PAS payer endpoint (prior authorization), a
 * manufacturer program hub (patient enrollment), a Da Vinci CRD service, which a prior authorization
 * asks what the payer requires before submitting, a Da Vinci DTR service, which serves the
 * questionnaire CRD named, and an SMTP server for the mail the service sends (signing links).
 */
export const CONNECTOR_KINDS = [
  'eligibility',
  'prior_authorization',
  'program_enrollment',
  'coverage_requirements',
  'questionnaire',
  'mail',
] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];

export function isConnectorKind(value: unknown): value is ConnectorKind {
  return typeof value === 'string' && (CONNECTOR_KINDS as readonly string[]).includes(value);
}

/**
 * The kinds whose settings a live case can use today. A prior authorization connector is a Da Vinci
 * PAS endpoint, which serves medical-benefit drugs only (src/connectors/connector-requirement.ts
 * refuses a live pharmacy-benefit PA, whose NCPDP SCRIPT ePA is not built). Program hub settings are
 * stored for the client that will use them; until then a live enrollment is refused rather than
 * answered by a simulator. Coverage requirements and questionnaire connectors are asked by a live
 * prior authorization when the account has them; no case type needs either.
 */
export const CONNECTOR_KINDS_IN_SERVICE: readonly ConnectorKind[] = [
  'eligibility',
  'prior_authorization',
  'coverage_requirements',
  'questionnaire',
];
