import { createServer, IncomingMessage, Server } from 'node:http';

import {
  Notification,
  ThinNotification,
  verifyWebhook,
  WebhookEndpointSecret,
} from '../clients/typescript/src/webhooks';

export type { Notification, ThinNotification } from '../clients/typescript/src/webhooks';

export interface ReceiverOptions {
  /** Your endpoint as POST /webhooks created it: its id (`wh_…`) and the secret you gave it. */
  endpoint: WebhookEndpointSecret;
  onNotification: (notification: Notification | ThinNotification) => Promise<void>;
  onRejected?: (reason: string) => void;
  /** Event ids already processed; keep them in your database in production. */
  seen: Set<string>;
}

/**
 * Decides the HTTP status for one request: 401 for anything the client's `verifyWebhook` refuses,
 * 200 for a duplicate (notifications can arrive more than once; X-Webhook-Id is the dedupe key),
 * else processes it.
 */
export async function handleNotification(
  rawBody: Buffer,
  headers: IncomingMessage['headers'],
  options: ReceiverOptions,
): Promise<number> {
  const verification = verifyWebhook(options.endpoint, headers, rawBody);
  if (!verification.ok) {
    options.onRejected?.(verification.reason);
    return 401;
  }
  const { notification } = verification;
  if (options.seen.has(notification.id)) return 200;
  try {
    await options.onNotification(notification);
  } catch {
    return 500;
  }
  options.seen.add(notification.id);
  return 200;
}

/** A complete receiver on Node's HTTP server. The raw bytes are hashed before any JSON parsing. */
export function createWebhookReceiver(options: ReceiverOptions): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void handleNotification(Buffer.concat(chunks), req.headers, options).then((status) =>
        res.writeHead(status).end(),
      );
    });
  });
}
