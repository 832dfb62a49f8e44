import { createHmac } from 'node:crypto';

/**
 * A stored stand-in for a value that must compare equal but never be read back (a patient, a drug, a
 * requester's network): the first 128 bits of HMAC-SHA-256 under the server's reference key
 * (`PATIENT_REF_KEY`), in hex.
 */
export function keyedReference(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text).digest('hex').slice(0, 32);
}
