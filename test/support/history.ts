import { defaultPayloadConverter } from '@temporalio/common';
import type { Payload } from '@temporalio/common';

import type { EncryptionSettings } from '../../infrastructure/config/config';
import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';

/**
 * Every payload of a history, decrypted and rendered as JSON text: what anyone holding the key
 * could read out of it. Searching this, not the raw ciphertext, shows what the history really carries.
 */
export async function decryptedHistoryText(
  history: unknown,
  encryption: EncryptionSettings,
): Promise<string> {
  const codec = new EncryptionCodec(encryption);
  const payloads: Payload[] = [];
  const collect = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const candidate = node as Payload;
    if (candidate.metadata && candidate.data instanceof Uint8Array) {
      payloads.push(candidate);
      return;
    }
    Object.values(node).forEach(collect);
  };
  collect(history);
  const decoded = await codec.decode(payloads);
  return decoded.map((payload) => JSON.stringify(defaultPayloadConverter.fromPayload(payload))).join('\n');
}

/**
 * The key recorded histories are encrypted with. Not a secret: replay tests must decrypt the
 * workflow inputs they feed to the workflow code, on any machine.
 */
export const REPLAY_FIXTURE_ENCRYPTION: EncryptionSettings = {
  keys: new Map([['replay-fixture', Buffer.from('replay-fixture-key-not-a-secret!', 'utf8')]]),
  currentKeyId: 'replay-fixture',
};

export const REPLAY_FIXTURE_KEYS = `replay-fixture:${Buffer.from('replay-fixture-key-not-a-secret!', 'utf8').toString('base64')}`;
