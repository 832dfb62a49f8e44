import type {
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
  PriorAuthorizationChannel,
} from '../../../domain/payers/prior-authorization-exchange';
import type { PasEndpoint } from './pas-endpoint';
import {
  AnswerAttachment,
  writeInformationBundle,
  writeInquiryBundle,
  writeSubmitBundle,
} from './pas-request';
import { payerAnswerOf, readPasAnswer } from './pas-response';

export interface PasChannelOptions {
  now?: () => Date;
  /** Reads the case documents attached to an information answer (inside the activity, never in history). */
  readAttachments?: (documentIds: string[]) => Promise<AnswerAttachment[]>;
}

/**
 * Prior authorization over Da Vinci PAS: each call writes the request Bundle, sends it to the
 * endpoint, reads the ClaimResponse and maps it to the case's answer. Transport failures are the
 * endpoint's ConnectorErrors; answers that cannot be read are the reader's named errors.
 */
export class PasPriorAuthorizationChannel implements PriorAuthorizationChannel {
  private readonly now: () => Date;
  private readonly readAttachments: (documentIds: string[]) => Promise<AnswerAttachment[]>;

  constructor(
    private readonly endpoint: PasEndpoint,
    options: PasChannelOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.readAttachments = options.readAttachments ?? (async () => []);
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
    const attachments = await this.readAttachments(input.documentIds);
    const answer = await this.endpoint.submit(
      writeInformationBundle(input, attachments, { sentAt: this.now() }),
    );
    return payerAnswerOf(readPasAnswer(answer), input.caseId);
  }
}
