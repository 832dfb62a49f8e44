/**
 * Reads case memos as the API and the workers wrote them: sealed with our payload codec, laid out as
 * `domain/temporal/case-memo.ts` says. The one place that decodes memo payloads, with the SDK's public
 * converter interfaces only.
 */
import type { LoadedDataConverter, Payload } from '@temporalio/common';

import { CASE_MEMO_KEYS, type CaseMemo } from '../../domain/temporal/case-memo';
import { isEncrypted } from './encryption-codec';

type MemoFields = Record<string, Payload> | null | undefined;

/**
 * The API and the workers seal every memo field; a client still reads unsealed payloads, so a memo
 * written in plaintext by someone else in the namespace would otherwise be shown as the case.
 */
export function sealedByUs(fields: MemoFields): boolean {
  return Object.values(fields ?? {}).every(isEncrypted);
}

/** One payload through the codecs (last applied, first undone) and the payload converter. */
export async function decodePayload<T>(converter: LoadedDataConverter, payload: Payload): Promise<T> {
  let payloads = [payload];
  for (const codec of [...converter.payloadCodecs].reverse()) payloads = await codec.decode(payloads);
  return converter.payloadConverter.fromPayload<T>(payloads[0]!);
}

/** A case memo's fields decoded; undefined when any field is not sealed by us, which is never read. */
export async function readSealedMemo(
  converter: LoadedDataConverter,
  fields: MemoFields,
): Promise<CaseMemo | undefined> {
  if (!sealedByUs(fields)) return undefined;
  const decoded = await Promise.all(
    CASE_MEMO_KEYS.map(async (key) => {
      const payload = fields?.[key];
      return [key, payload ? await decodePayload(converter, payload) : undefined] as const;
    }),
  );
  return Object.fromEntries(decoded.filter(([, value]) => value !== undefined)) as CaseMemo;
}
