import {
  defaultPayloadConverter,
  METADATA_ENCODING_KEY,
  Payload,
  PayloadCodec,
  ValueError,
} from '@temporalio/common';
import { temporal } from '@temporalio/proto';

import { REFUSED_PAYLOAD_MARKER } from '../../domain/temporal/refused-payload';
import type { EncryptionSettings } from '../config/config';
import { open, seal } from '../crypto/aes-gcm';

export const ENCRYPTED_ENCODING = 'binary/encrypted';
export const ENCRYPTION_KEY_ID_METADATA = 'encryption-key-id';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface EncryptionCodecOptions {
  /**
   * The worker's setting: a payload that was not encrypted decodes to the refused marker
   * (domain/temporal/refused-payload.ts), which workflow code refuses. Throwing here instead would fail
   * the workflow task on every retry. Clients (the API, the codec endpoint) leave it off and pass
   * such payloads through, so operators still read them.
   */
  refuseUnencrypted?: boolean;
}

const refusedPayload = (): Payload => defaultPayloadConverter.toPayload({ [REFUSED_PAYLOAD_MARKER]: true });

/**
 * Encrypts every Temporal payload (inputs, results, signals, queries, memos, failure details) with
 * AES-256-GCM, so the Temporal database and Temporal Web without the codec endpoint see ciphertext
 * only. The key id travels in the payload metadata, which makes key rotation a configuration change:
 * old payloads stay readable while new ones use the current key.
 */
/** Whether a payload was sealed by this codec (any key); says nothing about whether it opens. */
export function isEncrypted(payload: Payload): boolean {
  const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
  return encoding !== undefined && encoding !== null && decoder.decode(encoding) === ENCRYPTED_ENCODING;
}

export class EncryptionCodec implements PayloadCodec {
  constructor(
    private readonly settings: EncryptionSettings,
    private readonly options: EncryptionCodecOptions = {},
  ) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    const keyId = this.settings.currentKeyId;
    const key = this.settings.keys.get(keyId)!;
    return payloads.map((payload) => ({
      metadata: {
        [METADATA_ENCODING_KEY]: encoder.encode(ENCRYPTED_ENCODING),
        [ENCRYPTION_KEY_ID_METADATA]: encoder.encode(keyId),
      },
      data: seal(temporal.api.common.v1.Payload.encode(payload).finish(), key),
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (!isEncrypted(payload)) {
        return this.options.refuseUnencrypted ? refusedPayload() : payload;
      }
      const keyIdBytes = payload.metadata?.[ENCRYPTION_KEY_ID_METADATA];
      if (!keyIdBytes || !payload.data)
        throw new ValueError('Encrypted payload is missing its key id or data');
      const keyId = decoder.decode(keyIdBytes);
      const key = this.settings.keys.get(keyId);
      if (!key) throw new ValueError(`No payload encryption key with id "${keyId}" is configured`);
      return temporal.api.common.v1.Payload.decode(open(payload.data, key));
    });
  }
}
