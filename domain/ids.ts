import { randomBytes } from 'node:crypto';

import { CASE_ID_PREFIXES } from './cases/case-kinds';

/** Every public id is a type prefix and an opaque token: sortable by creation time, carrying no PHI. */
export const ID_PREFIXES = {
  account: 'acct',
  apiKey: 'key',
  request: 'req',
  ...CASE_ID_PREFIXES,
  supportProgram: 'prog',
  webhookEndpoint: 'wh',
  event: 'evt',
  delivery: 'whd',
  document: 'doc',
  auditEvent: 'aud',
  consoleUser: 'usr',
  consoleSession: 'ses',
  consoleInvitation: 'inv',
  connector: 'conn',
  patientErasure: 'erase',
  providerAuthorization: 'pvauth',
  caseFeedback: 'fb',
  mailMessage: 'mail',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CROCKFORD_BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';

function encodeBase32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += CROCKFORD_BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += CROCKFORD_BASE32[(value << (5 - bits)) & 31];
  return output;
}

/** 48 bits of milliseconds then 80 random bits, ULID-style, so ids sort by creation time. */
export function newId(kind: IdKind, now = Date.now()): string {
  const token = Buffer.alloc(16);
  token.writeUIntBE(now, 0, 6);
  randomBytes(10).copy(token, 6);
  return `${ID_PREFIXES[kind]}_${encodeBase32(token)}`;
}

/**
 * When an id `newId` made was made: its first ten characters hold 50 bits, the 48 of its milliseconds
 * and two of its random bits. Null for a string of any other shape.
 */
export function createdAtOfId(id: string): Date | null {
  const token = /^[a-z]+_([0-9a-z]{26})$/.exec(id)?.[1];
  if (!token || [...token].some((digit) => !CROCKFORD_BASE32.includes(digit))) return null;
  const bits = [...token.slice(0, 10)].reduce(
    (value, digit) => value * 32 + CROCKFORD_BASE32.indexOf(digit),
    0,
  );
  return new Date(Math.floor(bits / 4));
}

/** The shape of every id of one kind: its prefix and 26 base-32 characters. */
export function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-z]{26}$`);
}

export function hasIdPrefix(kind: IdKind, id: string): boolean {
  return idPattern(kind).test(id);
}
