import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import type { components } from './api';

/** The body of a notification to a full endpoint: the event, with the case as GET answered it. */
export type Notification = components['schemas']['Notification'];
/** The body of a notification to a thin endpoint: `data` holds only id, object, status and livemode. */
export type ThinNotification = components['schemas']['ThinNotification'];

/** Your endpoint as POST /webhooks created it: its id (`wh_…`) and the secret you gave it. */
export interface WebhookEndpointSecret {
  endpointId: string;
  secret: string;
}

/** Request headers as Node gives them, as a plain record (any case), or as a Fetch `Headers`. */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export type WebhookVerification<Body = Notification | ThinNotification> =
  { ok: true; notification: Body } | { ok: false; reason: string };

export interface VerifyOptions {
  /** The issuer the service signs as: its `WEBHOOK_ISSUER`, `healthcare-access-api` unless set. */
  issuer?: string;
  /** The time to judge `exp` at; now by default. */
  now?: Date;
}

const DEFAULT_ISSUER = 'healthcare-access-api';
/** Leeway for the receiver's clock against the service's, in seconds. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Checks one notification before anything in it is trusted: the JWT in `X-Webhook-Secret` must be
 * HS256 under your endpoint's secret, issued by the service (`iss`) for your endpoint (`aud`),
 * unexpired (`exp`), name the event in `X-Webhook-Id`, and carry the SHA-256 of the exact body bytes
 * (`body_sha256`). Pass the raw bytes as received, before any JSON parsing.
 */
export function verifyWebhook(
  endpoint: WebhookEndpointSecret,
  headers: WebhookHeaders,
  rawBody: Buffer | Uint8Array,
  options: VerifyOptions = {},
): WebhookVerification {
  if (!endpoint.endpointId || !endpoint.secret) return refused('no endpoint id or secret to verify with');
  const token = header(headers, 'x-webhook-secret');
  if (!token) return refused('missing X-Webhook-Secret');
  const [encodedHeader, encodedClaims, signature, ...extra] = token.split('.');
  if (!encodedHeader || !encodedClaims || !signature || extra.length > 0) return refused('malformed token');
  // Pinning the algorithm refuses "none" and algorithm-confusion tokens.
  if (decodeJson(encodedHeader)?.alg !== 'HS256') return refused('token not signed with HS256');
  const expected = createHmac('sha256', endpoint.secret).update(`${encodedHeader}.${encodedClaims}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return refused('bad signature');
  const claims = decodeJson(encodedClaims);
  if (!claims) return refused('malformed token');
  if (claims.iss !== (options.issuer ?? DEFAULT_ISSUER)) return refused('token not issued by the service');
  // The audience refuses a token minted for another endpoint that shares this secret.
  const audience =
    typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
  if (!audience.includes(endpoint.endpointId)) return refused('token issued for another endpoint');
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (typeof claims.exp !== 'number' || claims.exp + CLOCK_TOLERANCE_SECONDS < now)
    return refused('token expired');
  const digest = createHash('sha256').update(rawBody).digest();
  const claimed = Buffer.from(String(claims.body_sha256 ?? ''), 'hex');
  if (claimed.length !== digest.length || !timingSafeEqual(claimed, digest)) {
    return refused('body does not match body_sha256');
  }
  const eventId = header(headers, 'x-webhook-id');
  if (typeof claims.event_id !== 'string' || claims.event_id !== eventId) {
    return refused('X-Webhook-Id does not match the token');
  }
  return {
    ok: true,
    notification: JSON.parse(Buffer.from(rawBody).toString('utf8')) as Notification | ThinNotification,
  };
}

/** One header's single value, whatever the case of its name; undefined when absent or repeated. */
function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value: unknown = entry?.[1];
  return typeof value === 'string' ? value : undefined;
}

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function refused(reason: string): WebhookVerification {
  return { ok: false, reason };
}
