import { createCipheriv, createDecipheriv, createSecretKey, KeyObject, randomBytes } from 'node:crypto';

import type { EncryptionSettings } from '../config/config';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Each configured key as a KeyObject, made once: given raw bytes, every cipher would copy them into
 * a new key object, which cost about a third of each memo decryption on a GET.
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();

function keyObjectOf(key: Buffer): KeyObject {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = createSecretKey(key);
    keyObjects.set(key, keyObject);
  }
  return keyObject;
}

/** AES-256-GCM: a random 96-bit IV, then the ciphertext, then the 128-bit tag, in one buffer. */
export function seal(plaintext: Uint8Array, key: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(key), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
}

/** Throws when the key is wrong or a single bit of the sealed bytes changed. */
export function open(sealed: Uint8Array, key: Buffer): Buffer {
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(key), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]);
}

/**
 * Encrypts values kept in SQL that must be read back (webhook secrets, event bodies with PHI) with
 * the same keys as Temporal payloads. The text form `keyId:base64` names its key, so rotation works
 * exactly as for payloads.
 */
export class SecretBox {
  constructor(private readonly settings: EncryptionSettings) {}

  sealText(plaintext: string): string {
    const keyId = this.settings.currentKeyId;
    return `${keyId}:${seal(Buffer.from(plaintext, 'utf8'), this.settings.keys.get(keyId)!).toString('base64')}`;
  }

  openText(sealed: string): string {
    const keyId = sealedKeyId(sealed);
    const key = this.settings.keys.get(keyId);
    if (!keyId || !key) throw new Error(`No encryption key with id "${keyId}" is configured`);
    return open(Buffer.from(sealed.slice(keyId.length + 1), 'base64'), key).toString('utf8');
  }
}

/** The id of the key a `SecretBox` value was sealed with; read without any key. */
export function sealedKeyId(sealed: string): string {
  const separator = sealed.indexOf(':');
  return separator <= 0 ? '' : sealed.slice(0, separator);
}
