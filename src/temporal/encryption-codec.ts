import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

import { METADATA_ENCODING_KEY, Payload, PayloadCodec, ValueError } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

import type { EncryptionSettings } from '../config/config';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const ENCRYPTION_KEY_ID_METADATA = 'encryption-key-id';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Encrypts every Temporal payload (inputs, results, signals, queries, memos, failure details) with
 * AES-256-GCM, so the Temporal database and Temporal Web without the codec endpoint see ciphertext
 * only. The key id travels in the payload metadata, which makes key rotation a configuration change:
 * old payloads stay readable while new ones use the current key.
 */
export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly settings: EncryptionSettings) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keyId = this.settings.currentKeyId;
    const key = this.settings.keys.get(keyId)!;
    return payloads.map((payload) => ({
      metadata: {
        [METADATA_ENCODING_KEY]: encoder.encode(ENCRYPTED_ENCODING),
        [ENCRYPTION_KEY_ID_METADATA]: encoder.encode(keyId),
      },
      data: encrypt(temporal.api.common.v1.Payload.encode(payload).finish(), key),
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
      if (!encoding || decoder.decode(encoding) !== ENCRYPTED_ENCODING) return payload;
      const keyIdBytes = payload.metadata?.[ENCRYPTION_KEY_ID_METADATA];
      if (!keyIdBytes || !payload.data)
        throw new ValueError('Encrypted payload is missing its key id or data');
      const keyId = decoder.decode(keyIdBytes);
      const key = this.settings.keys.get(keyId);
      if (!key) throw new ValueError(`No payload encryption key with id "${keyId}" is configured`);
      return temporal.api.common.v1.Payload.decode(decrypt(payload.data, key));
    });
  }
}

function encrypt(plaintext: Uint8Array, key: Buffer): Uint8Array {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
}

function decrypt(sealed: Uint8Array, key: Buffer): Uint8Array {
  const bytes = Buffer.from(sealed);
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]);
}
