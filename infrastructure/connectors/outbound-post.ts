import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';

import type { ConnectorAuth } from '../../domain/connectors/connector-settings';
import { ConnectorError } from '../../domain/failures';
import { TargetRefusedError, WebhookTargetPolicy } from '../webhooks/target-policy';

export interface PostedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A 2xx answer cut off at `maxAnswerBytes`: permanent, and named apart for callers that report it. */
export class AnswerTooLargeError extends ConnectorError {
  constructor(maxAnswerBytes: number) {
    super(`The connector's answer is larger than ${maxAnswerBytes} bytes.`, { transient: false });
    this.name = 'AnswerTooLargeError';
  }
}

/**
 * POSTs to a connector's endpoint and reads its answer, within `timeoutMs` for the whole exchange and
 * `maxAnswerBytes` for the body. Every connection goes through the SSRF policy; redirects are not
 * followed. What cannot be done becomes a ConnectorError: refusals and oversized 2xx answers are
 * permanent, timeouts and broken connections transient. A non-2xx answer past `maxAnswerBytes` is
 * answered cut there, for the caller to judge by its status. Messages name the endpoint's behaviour,
 * never what was sent.
 */
export function postToConnector(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: WebhookTargetPolicy; timeoutMs: number; maxAnswerBytes: number },
): Promise<PostedAnswer> {
  const target = new URL(url);
  const literalHost = target.hostname.replace(/^\[|\]$/g, '');
  const refused = isIP(literalHost) ? options.policy.refusal(literalHost) : undefined;
  if (refused)
    return Promise.reject(
      new ConnectorError(`The connector URL is refused by the SSRF policy: ${refused}.`, {
        transient: false,
      }),
    );

  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (message: string, transient: boolean) =>
      settle(() => reject(new ConnectorError(message, { transient })));
    const failTooLarge = () => settle(() => reject(new AnswerTooLargeError(options.maxAnswerBytes)));
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body).toString() },
        lookup: options.policy.lookup as unknown as http.RequestOptions['lookup'],
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        const status = response.statusCode ?? 0;
        const answered = () =>
          settle(() =>
            resolve({ status, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
          );
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxAnswerBytes) {
            // A gateway's error page can be any size; its status, not its length, says what went wrong.
            if (status >= 200 && status < 300) failTooLarge();
            else answered();
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', answered);
        response.on('error', () => fail('The connection broke while the connector answered.', true));
      },
    );
    const timer = setTimeout(() => {
      fail(`The connector did not answer within ${options.timeoutMs} ms.`, true);
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error instanceof TargetRefusedError)
        fail(`The connector URL is refused by the SSRF policy: ${error.message}.`, false);
      else fail(`The connection to the connector failed (${error.code ?? error.name}).`, true);
    });
    request.end(body);
  });
}

/** The header a connector's credentials travel in. */
export function connectorAuthorization(auth: ConnectorAuth): Record<string, string> {
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

const STATUSES_WORTH_RETRYING = new Set([408, 425, 429, 500, 502, 503, 504]);

/**
 * Turns a non-2xx answer into a ConnectorError: throttling, timeouts and server errors are transient
 * (with the Retry-After the other side asked for), every other status permanent. `party` names the
 * other side in the message ("the clearinghouse", "the PAS endpoint").
 */
export function refuseUnsuccessfulAnswer(answer: PostedAnswer, party: string): void {
  if (answer.status >= 200 && answer.status < 300) return;
  const transient = STATUSES_WORTH_RETRYING.has(answer.status);
  const retryAfterSeconds = Number(answer.headers['retry-after']);
  const who = party.charAt(0).toUpperCase() + party.slice(1);
  throw new ConnectorError(
    answer.status === 401 || answer.status === 403
      ? `${who} refused the connector's credentials (HTTP ${answer.status}).`
      : `${who} answered HTTP ${answer.status}.`,
    {
      transient,
      retryAfterMs: transient && Number.isFinite(retryAfterSeconds) ? retryAfterSeconds * 1000 : undefined,
    },
  );
}
