import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';

import { ConnectorError } from '../../domain/failures';
import { TargetRefusedError, WebhookTargetPolicy } from '../webhooks/target-policy';

export interface PostedAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * POSTs to a connector's endpoint and reads its answer, within `timeoutMs` for the whole exchange and
 * `maxAnswerBytes` for the body. Every connection goes through the SSRF policy; redirects are not
 * followed. What cannot be done becomes a ConnectorError: refusals and oversized answers are
 * permanent, timeouts and broken connections transient. Messages name the endpoint's behaviour,
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
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > options.maxAnswerBytes) {
            fail(`The connector's answer is larger than ${options.maxAnswerBytes} bytes.`, false);
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          settle(() =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
            }),
          ),
        );
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
