import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'hak_';

/** A fresh API key: a recognisable prefix (so secret scanners catch leaks) and 256 random bits. */
export function generateApiKeySecret(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys carry 256 bits of entropy, so one SHA-256 is enough to make the stored digest useless to a
 * database thief; a slow password hash would only add latency to every request.
 */
export function digestApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function digestsMatch(expectedHex: string, actualHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  const actual = Buffer.from(actualHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The last characters of a key, safe to show in listings so a person can tell keys apart. */
export function apiKeyHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}
