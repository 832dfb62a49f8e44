/**
 * The case commands' help, flags and refusal, apart from the commands so the CLI parses and lists
 * them without loading every case type.
 */
export const CASE_USAGE = `  cases:retry ID --api URL                         call the connector again now, for a case waiting out
                                                   an outage (it shows attention)
  cases:fail ID --api URL --reason REASON [--note TEXT]
                                                   end such a case failed; REASON: outage_outlasting,
                                                   connector_misconfigured, submitted_elsewhere; the
                                                   note stays in the encrypted history only
                                                   (both through the API with OPERATOR_API_KEY, audited
                                                   in the account that owns the case)`;

/** The flags of the cases:* commands, for the CLI's argument parser. */
export const CASE_OPTIONS = { reason: { type: 'string' }, note: { type: 'string' } } as const;

export class CaseCommandError extends Error {}
