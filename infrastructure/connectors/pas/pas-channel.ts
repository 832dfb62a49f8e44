import type {
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
  PriorAuthorizationChannel,
} from '../../../domain/payers/prior-authorization-exchange';
import type { PasEndpoint } from './pas-endpoint';
import { writeInformationBundle, writeInquiryBundle, writeSubmitBundle } from './pas-request';
import { PasExchangeError, retryableInquiryError } from './pas-errors';
import { payerAnswerOf, readPasAnswer } from './pas-response';

export interface PasChannelOptions {
  now?: () => Date;
}

/**
 * Prior authorization over Da Vinci PAS: each call writes the request Bundle, sends it to the
 * endpoint, reads the ClaimResponse and maps it to the case's answer. Transport failures are the
 * endpoint's ConnectorErrors; answers that cannot be read are the reader's named errors, permanent
 * for a submission or an information answer (not to be sent twice), transient for an inquiry.
 */
export class PasPriorAuthorizationChannel implements PriorAuthorizationChannel {
  private readonly now: () => Date;

  constructor(
    private readonly endpoint: PasEndpoint,
    options: PasChannelOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async submit(input: PriorAuthExchangeInput): Promise<PayerPriorAuthAnswer> {
    const answer = await this.endpoint.submit(writeSubmitBundle(input, { sentAt: this.now() }));
    return payerAnswerOf(readPasAnswer(answer), sentBy(input));
  }

  /** An unreadable inquiry answer is retried: asking again is harmless, and the payer still holds the request. */
  async inquire(input: PriorAuthInquiryInput): Promise<PayerPriorAuthAnswer> {
    const answer = await this.endpoint.inquire(writeInquiryBundle(input, { sentAt: this.now() }));
    try {
      return payerAnswerOf(readPasAnswer(answer), sentBy(input));
    } catch (error) {
      throw error instanceof PasExchangeError ? retryableInquiryError(error) : error;
    }
  }

  async answerInformationRequest(input: PriorAuthInformationInput): Promise<PayerPriorAuthAnswer> {
    const answer = await this.endpoint.submit(writeInformationBundle(input, { sentAt: this.now() }));
    return payerAnswerOf(readPasAnswer(answer), sentBy(input));
  }
}

function sentBy(input: PriorAuthExchangeInput) {
  return { identifier: input.caseId, quantity: input.request.prescription.quantity };
}
