import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';

import { TargetRefusedError, WebhookTargetPolicy } from './target-policy';

export interface SendResult {
  httpStatus?: number;
  durationMs: number;
  /** Why the attempt failed, in words safe to show the endpoint's owner (never the body). */
  error?: string;
}

/**
 * POSTs one notification. Redirects are not followed (a 3xx is a failed attempt), the whole
 * exchange must finish within `timeoutMs`, and every connection goes through the target policy.
 */
export function sendNotification(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { policy: WebhookTargetPolicy; timeoutMs: number },
): Promise<SendResult> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const target = new URL(url);
  const literalHost = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literalHost)) {
    const refused = options.policy.refusal(literalHost);
    if (refused) return Promise.resolve({ durationMs: 0, error: `refused by the SSRF policy: ${refused}` });
  }

  return new Promise((resolve) => {
    const client = target.protocol === 'https:' ? https : http;
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body).toString() },
        lookup: options.policy.lookup as unknown as http.RequestOptions['lookup'],
        agent: false,
      },
      (response) => {
        // The status is all we need; drain the body so the socket closes cleanly.
        response.resume();
        response.on('end', () => finish({ httpStatus: response.statusCode }));
        response.on('error', () => finish({ httpStatus: response.statusCode }));
      },
    );
    const timer = setTimeout(() => {
      finish({ error: `no answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      finish({
        error:
          error instanceof TargetRefusedError
            ? `refused by the SSRF policy: ${error.message}`
            : `connection failed (${error.code ?? error.name})`,
      });
    });
    request.end(body);
  });
}
