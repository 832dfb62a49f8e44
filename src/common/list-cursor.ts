import { createHmac, createSecretKey, hkdfSync, KeyObject, timingSafeEqual } from 'node:crypto';

import { ApiError } from './errors';

const CURSOR_KEY_INFO = 'healthcare-access-api list cursor v1';
const CURSOR_MAC_BYTES = 16;

/**
 * A list cursor is where a page stopped (the last item's sort key and id, as JSON) sealed with an
 * HMAC over the list and filters it pages: a forged or foreign cursor (another account's, mode's or
 * filter's) is refused before any query runs. The MAC key is derived for this purpose alone (HKDF),
 * so a cursor never exposes a MAC made with the key that hashes patient references.
 */
export class ListCursors {
  /** A KeyObject, so each MAC uses it as it is rather than copying raw bytes into a new key. */
  private readonly key: KeyObject;

  constructor(rootKey: Buffer) {
    this.key = createSecretKey(
      Buffer.from(hkdfSync('sha256', rootKey, Buffer.alloc(0), CURSOR_KEY_INFO, 32)),
    );
  }

  seal(position: object, filter: string): string {
    const body = Buffer.from(JSON.stringify(position), 'utf8');
    return Buffer.concat([body, this.mac(body, filter)]).toString('base64url');
  }

  /** The position a cursor carries, or 400 on `cursor` for any cursor this service did not issue for this filter. */
  open<Position extends object>(cursor: string, filter: string): Position {
    const bytes = Buffer.from(cursor, 'base64url');
    const body = bytes.subarray(0, Math.max(bytes.length - CURSOR_MAC_BYTES, 0));
    const mac = bytes.subarray(body.length);
    const expected = this.mac(body, filter);
    if (body.length === 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'cursor', issue: 'must be a next_cursor this list returned for the same filters' },
      ]);
    }
    return JSON.parse(body.toString('utf8')) as Position;
  }

  private mac(body: Buffer, filter: string): Buffer {
    return createHmac('sha256', this.key)
      .update(filter)
      .update('\n')
      .update(body)
      .digest()
      .subarray(0, CURSOR_MAC_BYTES);
  }
}
