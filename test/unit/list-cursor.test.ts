import { createHmac, randomBytes } from 'node:crypto';

import { ApiError } from '../../src/common/errors';
import { ListCursors } from '../../src/common/list-cursor';

const filter = JSON.stringify({ accountId: 'acct_1', object: 'prior_authorization' });
const position = { createdAt: '2026-11-27T08:00:00.000Z', caseId: 'pa_01jnnmj58jf1nen1dn9mmkb0r6' };

function refusal(open: () => unknown): ApiError | undefined {
  try {
    open();
  } catch (error) {
    return error as ApiError;
  }
  return undefined;
}

describe('list cursors', () => {
  const rootKey = randomBytes(32);
  const cursors = new ListCursors(rootKey);

  it('open to the position they were sealed with, for the same filter', () => {
    expect(cursors.open(cursors.seal(position, filter), filter)).toEqual(position);
  });

  it('are refused for another filter with a validation error on cursor', () => {
    const other = JSON.stringify({ accountId: 'acct_2', object: 'prior_authorization' });
    const error = refusal(() => cursors.open(cursors.seal(position, filter), other));
    expect(error).toBeInstanceOf(ApiError);
    expect({ code: error?.code, details: error?.details }).toEqual({
      code: 'validation_error',
      details: [{ field: 'cursor', issue: 'must be a next_cursor this list returned for the same filters' }],
    });
  });

  it('are refused when their MAC was made with the root key itself, as cursors issued by earlier releases were', () => {
    const body = Buffer.from(JSON.stringify(position));
    const oldMac = createHmac('sha256', rootKey).update(filter).update('\n').update(body).digest();
    const oldCursor = Buffer.concat([body, oldMac.subarray(0, 16)]).toString('base64url');
    expect(refusal(() => cursors.open(oldCursor, filter))?.code).toBe('validation_error');
  });
});
