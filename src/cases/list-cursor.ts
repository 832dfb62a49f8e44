import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

import { ApiError } from '../common/errors';

const CURSOR_KEY_INFO = 'healthcare-access-api list cursor v1';
const CURSOR_MAC_BYTES = 16;

/**
 * List cursors are Temporal's page token sealed with an HMAC over the query it pages: a forged or
 * foreign cursor (another account's, another filter's) is refused before Temporal sees it. The MAC
 * key is derived for this purpose alone (HKDF), so a cursor never exposes a MAC made with the key
 * that hashes patient references.
 */
export class ListCursors {
  private readonly key: Buffer;

  constructor(rootKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), CURSOR_KEY_INFO, 32));
  }

  seal(pageToken: Uint8Array, visibilityQuery: string): string {
    const token = Buffer.from(pageToken);
    return Buffer.concat([token, this.mac(token, visibilityQuery)]).toString('base64url');
  }

  /** The page token a cursor carries, or 400 on `cursor` for any cursor this service did not issue for this query. */
  open(cursor: string, visibilityQuery: string): Buffer {
    const bytes = Buffer.from(cursor, 'base64url');
    const pageToken = bytes.subarray(0, Math.max(bytes.length - CURSOR_MAC_BYTES, 0));
    const mac = bytes.subarray(pageToken.length);
    const expected = this.mac(pageToken, visibilityQuery);
    if (pageToken.length === 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'cursor', issue: 'must be a next_cursor this list returned for the same filters' },
      ]);
    }
    return pageToken;
  }

  private mac(pageToken: Buffer, visibilityQuery: string): Buffer {
    return createHmac('sha256', this.key)
      .update(visibilityQuery)
      .update('\n')
      .update(pageToken)
      .digest()
      .subarray(0, CURSOR_MAC_BYTES);
  }
}
