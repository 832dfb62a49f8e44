import type { EligibilityConnectorSettings } from '../../domain/connectors/connector-settings';
import type { Clearinghouse } from '../../domain/payers/clearinghouse';
import { ConnectorError } from '../../domain/failures';
import type { WebhookTargetPolicy } from '../webhooks/target-policy';
import { connectorAuthorization, postToConnector, refuseUnsuccessfulAnswer } from './outbound-post';

/** Where an account's clearinghouse takes 270s, as its connector settings say. */
export type ClearinghouseEndpoint = Pick<
  EligibilityConnectorSettings,
  'url' | 'format' | 'auth' | 'timeoutMs'
>;

/** A 271 for a handful of members is a few kilobytes; far more is not an answer to one inquiry. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The live clearinghouse: one HTTP POST per inquiry, through the SSRF policy. */
export class HttpClearinghouse implements Clearinghouse {
  constructor(
    private readonly endpoint: ClearinghouseEndpoint,
    private readonly policy: WebhookTargetPolicy,
  ) {}

  async exchange(interchange: string): Promise<string> {
    const json = this.endpoint.format === 'json';
    const answer = await postToConnector(
      this.endpoint.url,
      json ? JSON.stringify({ x12: interchange }) : interchange,
      {
        'Content-Type': json ? 'application/json' : 'application/EDI-X12',
        Accept: json ? 'application/json' : 'application/EDI-X12, text/plain',
        ...connectorAuthorization(this.endpoint.auth),
      },
      { policy: this.policy, timeoutMs: this.endpoint.timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES },
    );
    refuseUnsuccessfulAnswer(answer, 'the clearinghouse');
    return json ? x12Inside(answer.body) : answer.body;
  }
}

function x12Inside(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new ConnectorError('The clearinghouse answered with a body that is not JSON.', {
      transient: false,
    });
  }
  const x12 = (parsed as { x12?: unknown } | null)?.x12;
  if (typeof x12 !== 'string') {
    throw new ConnectorError('The clearinghouse answered JSON without an "x12" string.', {
      transient: false,
    });
  }
  return x12;
}
