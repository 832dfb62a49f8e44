/**
 * The layout of a case's memo, which answers every read without a worker. Written here and read here
 * only: the API writes it when it starts a case, the lifecycle rewrites it at each change, and GET,
 * lists and the operator's tools read it back through `caseFromMemo`.
 * - `case`: the case's changing part, rewritten at each change;
 * - `request`: its request, written once when the case starts and again only when replaced;
 * - `binding`: the API's proof that it started this case for this account, never rewritten.
 * Cases started before the split keep their request inside `case`; cases started before modes are
 * test cases.
 */
import type { CaseBinding } from '../cases/case-binding';
import type { CaseRecord } from '../cases/case-model';

export const CASE_MEMO_KEY = 'case';
export const REQUEST_MEMO_KEY = 'request';
export const BINDING_MEMO_KEY = 'binding';
export const CASE_MEMO_KEYS = [CASE_MEMO_KEY, REQUEST_MEMO_KEY, BINDING_MEMO_KEY] as const;

/** A memo as its fields decode; any may be absent on an older case. */
export type CaseMemo = Partial<Record<(typeof CASE_MEMO_KEYS)[number], unknown>>;

type RecordWithRequest = CaseRecord & { request?: unknown };

/** What the API writes when it starts a case. */
export function memoAtStart(record: CaseRecord, binding: CaseBinding): CaseMemo {
  const { request, ...changing } = record as RecordWithRequest;
  return request === undefined
    ? { [CASE_MEMO_KEY]: record, [BINDING_MEMO_KEY]: binding }
    : { [CASE_MEMO_KEY]: changing, [REQUEST_MEMO_KEY]: request, [BINDING_MEMO_KEY]: binding };
}

/**
 * The fields to upsert after a change. The request rarely changes (an enrollment merges information
 * sent later), so a case that started with it under its own key writes it again only when the
 * workflow replaced it (`requestInMemo` is what the memo holds now); a case started before that split
 * keeps writing its whole object.
 */
export function memoAfterChange(
  record: CaseRecord,
  requestInMemo: unknown,
  requestKeptApart: boolean,
): CaseMemo {
  const { request, ...changing } = record as RecordWithRequest;
  if (request === undefined || !requestKeptApart) return { [CASE_MEMO_KEY]: record };
  return { [CASE_MEMO_KEY]: changing, ...(request === requestInMemo ? {} : { [REQUEST_MEMO_KEY]: request }) };
}

/** The case as GET shows it, request last. */
export function caseFromMemo(memo: CaseMemo): CaseRecord {
  const stored = memo[CASE_MEMO_KEY] as (Omit<CaseRecord, 'livemode'> & { livemode?: boolean }) | undefined;
  const record = stored && { ...stored, livemode: stored.livemode ?? false };
  const request = memo[REQUEST_MEMO_KEY];
  return (request === undefined ? record : { ...record, request }) as CaseRecord;
}

/**
 * The case as GET shows it from the object the read model keeps (the workflow's whole record): the
 * same shape as from the memo, request last.
 */
export function caseFromSealedObject(stored: CaseRecord): CaseRecord {
  const { request, ...changing } = stored as RecordWithRequest;
  return caseFromMemo({
    [CASE_MEMO_KEY]: changing,
    ...(request !== undefined && { [REQUEST_MEMO_KEY]: request }),
  });
}
