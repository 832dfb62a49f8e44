import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';

import jwt from 'jsonwebtoken';

export interface Notification {
  id: string;
  type: string;
  title: string;
  description: string;
  created_at: string;
  data: Record<string, unknown>;
}

export type Verification = { ok: true; notification: Notification } | { ok: false; reason: string };

/** Your endpoint as POST /webhooks created it: its id (`wh_…`) and the secret you gave it. */
export interface Endpoint {
  id: string;
  secret: string;
}

/**
 * Checks one notification: the JWT in X-Webhook-Secret must be HS256 with your secret, unexpired,
 * issued by the service for your endpoint (`aud`), name the event of X-Webhook-Id, and carry the
 * SHA-256 of the raw body bytes.
 */
export function verifyNotification(
  rawBody: Buffer,
  headers: IncomingMessage['headers'],
  endpoint: Endpoint,
  issuer = 'healthcare-access-api',
): Verification {
  const token = headers['x-webhook-secret'];
  if (typeof token !== 'string') return { ok: false, reason: 'missing X-Webhook-Secret' };
  let claims: jwt.JwtPayload;
  try {
    // Pinning the algorithm refuses "none" and algorithm-confusion tokens; exp is checked here, and
    // the audience refuses a token minted for another endpoint that shares this secret.
    claims = jwt.verify(token, endpoint.secret, {
      algorithms: ['HS256'],
      issuer,
      audience: endpoint.id,
    }) as jwt.JwtPayload;
  } catch (error) {
    return { ok: false, reason: `invalid token: ${(error as Error).message}` };
  }
  const digest = createHash('sha256').update(rawBody).digest();
  const claimed = Buffer.from(String(claims.body_sha256 ?? ''), 'hex');
  if (claimed.length !== digest.length || !timingSafeEqual(claimed, digest)) {
    return { ok: false, reason: 'body does not match body_sha256' };
  }
  if (claims.event_id !== headers['x-webhook-id'])
    return { ok: false, reason: 'X-Webhook-Id does not match the token' };
  return { ok: true, notification: JSON.parse(rawBody.toString('utf8')) as Notification };
}

export interface ReceiverOptions {
  endpoint: Endpoint;
  onNotification: (notification: Notification) => Promise<void>;
  onRejected?: (reason: string) => void;
  /** Event ids already processed; keep them in your database in production. */
  seen: Set<string>;
}

/**
 * Decides the HTTP status for one request: 401 for anything unverifiable, 200 for a duplicate
 * (notifications can arrive more than once; X-Webhook-Id is the dedupe key), else processes it.
 */
export async function handleNotification(
  rawBody: Buffer,
  headers: IncomingMessage['headers'],
  options: ReceiverOptions,
): Promise<number> {
  const verification = verifyNotification(rawBody, headers, options.endpoint);
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
