import type { ConnectorAuth, EligibilityConnectorSettings } from '../../domain/connectors/connector-settings';
import type { Clearinghouse } from '../../domain/payers/clearinghouse';
import { ConnectorError } from '../../domain/failures';
import type { WebhookTargetPolicy } from '../webhooks/target-policy';
import { postToConnector, PostedAnswer } from './outbound-post';

/** Where an account's clearinghouse takes 270s, as its connector settings say. */
export type ClearinghouseEndpoint = Pick<
  EligibilityConnectorSettings,
  'url' | 'format' | 'auth' | 'timeoutMs'
>;

/** A 271 for a handful of members is a few kilobytes; far more is not an answer to one inquiry. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const STATUSES_WORTH_RETRYING = new Set([408, 425, 429, 500, 502, 503, 504]);

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
        ...authorization(this.endpoint.auth),
      },
      { policy: this.policy, timeoutMs: this.endpoint.timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES },
    );
    refuseUnsuccessful(answer);
    return json ? x12Inside(answer.body) : answer.body;
  }
}

function authorization(auth: ConnectorAuth): Record<string, string> {
  switch (auth.type) {
    case 'none':
      return {};
    case 'basic':
      return {
        Authorization: `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString('base64')}`,
      };
    case 'bearer':
      return { Authorization: `Bearer ${auth.token}` };
    case 'header':
      return { [auth.name]: auth.value };
  }
}

function refuseUnsuccessful(answer: PostedAnswer): void {
  if (answer.status >= 200 && answer.status < 300) return;
  const transient = STATUSES_WORTH_RETRYING.has(answer.status);
  const retryAfterSeconds = Number(answer.headers['retry-after']);
  throw new ConnectorError(
    answer.status === 401 || answer.status === 403
      ? `The clearinghouse refused the connector's credentials (HTTP ${answer.status}).`
      : `The clearinghouse answered HTTP ${answer.status}.`,
    {
      transient,
      retryAfterMs: transient && Number.isFinite(retryAfterSeconds) ? retryAfterSeconds * 1000 : undefined,
    },
  );
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
