import type {
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
  PriorAuthorizationChannel,
} from '../../../domain/payers/prior-authorization-exchange';
import type { PasEndpoint } from './pas-endpoint';
import { writeInformationBundle, writeInquiryBundle, writeSubmitBundle } from './pas-request';
import { payerAnswerOf, readPasAnswer } from './pas-response';

export interface PasChannelOptions {
  now?: () => Date;
}

/**
 * Prior authorization over Da Vinci PAS: each call writes the request Bundle, sends it to the
 * endpoint, reads the ClaimResponse and maps it to the case's answer. Transport failures are the
 * endpoint's ConnectorErrors; answers that cannot be read are the reader's named errors.
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
    return payerAnswerOf(readPasAnswer(answer), input.caseId);
  }

  async inquire(input: PriorAuthInquiryInput): Promise<PayerPriorAuthAnswer> {
    const answer = await this.endpoint.inquire(writeInquiryBundle(input, { sentAt: this.now() }));
    return payerAnswerOf(readPasAnswer(answer), input.caseId);
  }

  async answerInformationRequest(input: PriorAuthInformationInput): Promise<PayerPriorAuthAnswer> {
    const answer = await this.endpoint.submit(writeInformationBundle(input, { sentAt: this.now() }));
    return payerAnswerOf(readPasAnswer(answer), input.caseId);
  }
}
