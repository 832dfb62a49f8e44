import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** docs/decisions.md#modes: a key works in one mode, test (simulators) or live (the account's connectors). */
export const KEY_MODES = ['test', 'live'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

/**
 * A fresh API key: a recognisable prefix that names its mode (so secret scanners catch leaks, and a
 * person can tell a live key from a test key at a glance) and 256 random bits. The mode itself is
 * stored with the key; keys issued before modes (`hak_…`) are test keys.
 */
export function generateApiKeySecret(mode: KeyMode): string {
  return `hak_${mode}_${randomBytes(32).toString('base64url')}`;
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
