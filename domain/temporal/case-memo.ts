/**
 * The memo keys that answer every read without a worker: the case's changing part under `case`,
 * rewritten at each change, and its request under `request`, written once when the case starts.
 * Cases started before the split keep their request inside `case`.
 */
export const CASE_MEMO_KEY = 'case';
export const REQUEST_MEMO_KEY = 'request';
