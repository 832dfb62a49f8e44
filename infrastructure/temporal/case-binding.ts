import { createHmac, createSecretKey, hkdfSync, KeyObject, timingSafeEqual } from 'node:crypto';

import type { CaseBinding } from '../../domain/cases/case-binding';
import type { EncryptionSettings } from '../config/config';

const BINDING_KEY_INFO = 'healthcare-access-api case-account binding v1';

/**
 * Derived once per payload key, as a KeyObject: every GET checks a binding, and deriving the key and
 * copying it into an HMAC each time was a fifth of a GET's crypto.
 */
const bindingKeys = new WeakMap<Buffer, KeyObject>();

/**
 * A key of its own per payload key (HKDF), so a binding MAC never reuses the encryption key
 * itself, and a binding names the key id it was made with: after a rotation, cases started
 * under the old key still verify for as long as that key is configured.
 */
function bindingKey(encryption: EncryptionSettings, keyId: string): KeyObject | undefined {
  const payloadKey = encryption.keys.get(keyId);
  if (!payloadKey) return undefined;
  let key = bindingKeys.get(payloadKey);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync('sha256', payloadKey, Buffer.alloc(0), BINDING_KEY_INFO, 32)));
    bindingKeys.set(payloadKey, key);
  }
  return key;
}

function macOf(key: KeyObject, caseId: string, accountId: string): Buffer {
  // JSON keeps the two ids apart whatever characters they hold.
  return createHmac('sha256', key)
    .update(JSON.stringify([caseId, accountId]))
    .digest();
}

/** What the API attaches to a case it starts: proof that it authenticated this account for this case. */
export function bindCaseToAccount(
  encryption: EncryptionSettings,
  caseId: string,
  accountId: string,
): CaseBinding {
  const keyId = encryption.currentKeyId;
  return { keyId, mac: macOf(bindingKey(encryption, keyId)!, caseId, accountId).toString('base64url') };
}

export function caseBindingHolds(
  encryption: EncryptionSettings,
  caseId: string,
  accountId: string,
  binding: CaseBinding,
): boolean {
  const key = bindingKey(encryption, binding.keyId);
  if (!key || typeof binding.mac !== 'string') return false;
  const expected = macOf(key, caseId, accountId);
  const given = Buffer.from(binding.mac, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Whether a case's memo may be shown as this account's case: its binding holds, or it carries none
 * because it started before the API wrote bindings (`startedBeforeBindings`, asked only then).
 */
export async function caseMemoTrusted(
  encryption: EncryptionSettings,
  memo: { caseId: string; accountId: string; binding: unknown },
  startedBeforeBindings: () => Promise<boolean>,
): Promise<boolean> {
  const { caseId, accountId, binding } = memo;
  if (binding === undefined) return startedBeforeBindings();
  return (
    typeof binding === 'object' &&
    binding !== null &&
    caseBindingHolds(encryption, caseId, accountId, binding as CaseBinding)
  );
}
