import { randomBytes } from 'node:crypto';

import { defaultPayloadConverter } from '@temporalio/common';

import { isRefusedPayload } from '../../domain/temporal/refused-payload';
import { ENCRYPTED_ENCODING, EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';

const patient = { first_name: 'Odalys', last_name: 'Brightwater', date_of_birth: '1961-04-09' };
const oldKey = randomBytes(32);
const newKey = randomBytes(32);

describe('the payload encryption codec', () => {
  const codec = new EncryptionCodec({ keys: new Map([['k1', oldKey]]), currentKeyId: 'k1' });

  it('turns a payload into ciphertext that names its key and no longer contains the data', async () => {
    const [encoded] = await codec.encode([defaultPayloadConverter.toPayload(patient)]);
    expect(Buffer.from(encoded!.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(encoded!.metadata!['encryption-key-id']!).toString()).toBe('k1');
    expect(Buffer.from(encoded!.data!).toString('latin1')).not.toContain('Brightwater');
  });

  it('decodes what it encoded back to the same value', async () => {
    const decoded = await codec.decode(await codec.encode([defaultPayloadConverter.toPayload(patient)]));
    expect(defaultPayloadConverter.fromPayload(decoded[0]!)).toEqual(patient);
  });

  it('still reads payloads written with a retired key after rotation', async () => {
    const written = await codec.encode([defaultPayloadConverter.toPayload(patient)]);
    const rotated = new EncryptionCodec({
      keys: new Map([
        ['k1', oldKey],
        ['k2', newKey],
      ]),
      currentKeyId: 'k2',
    });
    expect(defaultPayloadConverter.fromPayload((await rotated.decode(written))[0]!)).toEqual(patient);
    const [rewritten] = await rotated.encode([defaultPayloadConverter.toPayload(patient)]);
    expect(Buffer.from(rewritten!.metadata!['encryption-key-id']!).toString()).toBe('k2');
  });

  it('refuses a payload whose key is not configured', async () => {
    const written = await codec.encode([defaultPayloadConverter.toPayload(patient)]);
    const stranger = new EncryptionCodec({ keys: new Map([['other', newKey]]), currentKeyId: 'other' });
    await expect(stranger.decode(written)).rejects.toThrow('No payload encryption key with id "k1"');
  });

  it('refuses a payload whose ciphertext was tampered with', async () => {
    const [written] = await codec.encode([defaultPayloadConverter.toPayload(patient)]);
    const tampered = Buffer.from(written!.data!);
    tampered[20] = tampered[20]! ^ 0xff;
    await expect(codec.decode([{ ...written!, data: tampered }])).rejects.toThrow();
  });

  it('passes through payloads that were never encrypted', async () => {
    const plain = defaultPayloadConverter.toPayload({ hello: 'world' });
    expect(await codec.decode([plain])).toEqual([plain]);
  });

  describe('on the worker, which refuses what was not encrypted', () => {
    const workerCodec = new EncryptionCodec(
      { keys: new Map([['k1', oldKey]]), currentKeyId: 'k1' },
      { refuseUnencrypted: true },
    );

    it('hands the workflow the refused marker instead of an unencrypted payload, without throwing', async () => {
      const [decoded] = await workerCodec.decode([defaultPayloadConverter.toPayload(patient)]);
      const value = defaultPayloadConverter.fromPayload(decoded!);
      expect(isRefusedPayload(value)).toBe(true);
      expect(JSON.stringify(value)).not.toContain('Brightwater');
    });

    it('still decodes what was encrypted', async () => {
      const decoded = await workerCodec.decode(
        await codec.encode([defaultPayloadConverter.toPayload(patient)]),
      );
      expect(defaultPayloadConverter.fromPayload(decoded[0]!)).toEqual(patient);
    });
  });
});
