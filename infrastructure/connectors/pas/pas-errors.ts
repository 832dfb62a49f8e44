import { ConnectorError } from '../../../domain/failures';

/**
 * A PAS exchange that cannot be understood: permanent (trying again reads the same bytes), and
 * named by the rule it breaks and the JSON path where, never by a value, since the message
 * reaches workflow history and a FHIR Bundle is full of patient data.
 */
export abstract class PasExchangeError extends ConnectorError {
  constructor(
    readonly rule: string,
    readonly path: string,
    answerUnreadable = true,
  ) {
    super(`${rule} (at ${path}).`, { transient: false, answerUnreadable });
  }
}

/** The payer's answer is not the JSON shape FHIR R4 and the PAS IG give a ClaimResponse Bundle. */
export class MalformedPasResponseError extends PasExchangeError {
  override readonly name = 'MalformedPasResponseError';
}

/** The payer's answer is well formed but says what this connector does not act on (an unknown review action, another request's answer). */
export class UnexpectedPasResponseError extends PasExchangeError {
  override readonly name = 'UnexpectedPasResponseError';
}

/** A request Bundle that is not a PAS request (what the sandbox's payer answers when our writer is wrong). */
export class MalformedPasRequestError extends PasExchangeError {
  override readonly name = 'MalformedPasRequestError';

  constructor(rule: string, path: string) {
    super(rule, path, false);
  }
}

/**
 * An `$inquire` answer that cannot be read: an inquiry can be asked again, and the payer still holds
 * the request, so it is transient and retried rather than failing the case.
 */
export function retryableInquiryError(error: PasExchangeError): ConnectorError {
  return new ConnectorError(error.message, { transient: true, answerUnreadable: true });
}
