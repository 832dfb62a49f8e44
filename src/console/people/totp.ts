import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 6238 as authenticator apps expect it: HMAC-SHA-1, 30-second steps, 6 digits. */
const STEP_SECONDS = 30;
const DIGITS = 6;
const SECRET_BYTES = 20;
/** One step either side: phone clocks drift, and a code typed at the end of its step still counts. */
const ALLOWED_DRIFT_STEPS = 1;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let output = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      output += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) output += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return output;
}

export function base32Decode(text: string): Buffer {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of text.replace(/[\s=-]/g, '').toUpperCase()) {
    const index = BASE32_ALPHABET.indexOf(character);
    if (index < 0) throw new Error('Not a base32 secret');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** A new shared secret, in the base32 form people type into authenticator apps. */
export function generateTotpSecret(): string {
  return base32Encode(randomBytes(SECRET_BYTES));
}

export function timeStep(atMs: number): number {
  return Math.floor(atMs / 1000 / STEP_SECONDS);
}

/** The HOTP value (RFC 4226) of one counter, with `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = DIGITS, algorithm = 'sha1'): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export function totpCode(secret: string, atMs: number): string {
  return hotp(base32Decode(secret), timeStep(atMs));
}

/**
 * The time step a presented code belongs to, if it is right within the allowed drift and later than
 * `lastAcceptedStep`: a code that already signed someone in is never accepted again.
 */
export function acceptedStep(
  secret: string,
  code: string,
  atMs: number,
  lastAcceptedStep: number | null,
): number | undefined {
  const presented = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(presented)) return undefined;
  const key = base32Decode(secret);
  const now = timeStep(atMs);
  for (let step = now - ALLOWED_DRIFT_STEPS; step <= now + ALLOWED_DRIFT_STEPS; step += 1) {
    if (lastAcceptedStep !== null && step <= lastAcceptedStep) continue;
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(presented))) return step;
  }
  return undefined;
}

/** The `otpauth://` address an authenticator app reads from the set-up QR code. */
export function otpauthUri(secret: string, accountLabel: string, issuer = 'Healthcare Access'): string {
  const label = encodeURIComponent(`${issuer}:${accountLabel}`);
  const parameters = new URLSearchParams({
    secret,
    issuer,
    algorithm: 'SHA1',
    digits: String(DIGITS),
    period: String(STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${parameters.toString()}`;
}
