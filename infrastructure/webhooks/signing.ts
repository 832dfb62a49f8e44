import { createHash, randomUUID } from 'node:crypto';

import jwt from 'jsonwebtoken';

import type { NotificationBody } from './webhook-deliveries.repository';

export const SIGNATURE_LIFETIME_SECONDS = 300;

/**
 * The headers of one delivery attempt. The JWT is minted per attempt (fresh `iat`, `exp`, `jti`) and
 * binds the exact body bytes through `body_sha256`, so a receiver that checks it knows the body is
 * ours, unchanged and recent. `aud` is the endpoint's id, so a token sent to one endpoint is refused
 * by another that shares its secret. `X-Webhook-Id` is the event id: stable across retries, the
 * dedupe key.
 */
export function signedHeaders(
  body: string,
  notification: Pick<NotificationBody, 'id' | 'type'>,
  endpoint: { id: string; secret: string },
  issuer: string,
): Record<string, string> {
  const token = jwt.sign(
    {
      event_id: notification.id,
      event_type: notification.type,
      body_sha256: createHash('sha256').update(body, 'utf8').digest('hex'),
    },
    endpoint.secret,
    {
      algorithm: 'HS256',
      issuer,
      audience: endpoint.id,
      expiresIn: SIGNATURE_LIFETIME_SECONDS,
      jwtid: randomUUID(),
    },
  );
  return {
    'Content-Type': 'application/json',
    'User-Agent': `${issuer}/webhooks`,
    'X-Webhook-Id': notification.id,
    'X-Webhook-Secret': token,
  };
}
