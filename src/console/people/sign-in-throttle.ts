import { createHash } from 'node:crypto';

import { SqlRateLimiter } from '../../../infrastructure/rate-limits/sql-rate-limiter';
import type { Database } from '../../../infrastructure/storage/database';
import { ApiError } from '../../common/errors';

/**
 * Five attempts on one email, then one a minute: a person who mistypes gets through, a guesser gets
 * 1,440 tries a day. Twenty attempts from one address, then one every six seconds: a clinic behind
 * one address keeps signing in while a script spraying many emails is slowed. docs/console.md states both.
 */
export const EMAIL_ATTEMPTS = { burst: 5, perSecond: 1 / 60 };
export const ADDRESS_ATTEMPTS = { burst: 20, perSecond: 1 / 6 };

const EMAIL_BUCKET = 'console-sign-in:email:';
const ADDRESS_BUCKET = 'console-sign-in:address:';

/**
 * Sign-in attempts (passwords and second-factor codes) in the buckets every API process shares.
 * Each attempt takes a token before any hash is computed, so concurrent guesses cannot outrun the
 * limit; an attempt that succeeds gives its tokens back, so only failures count. Buckets hold a
 * digest of the email, never the email.
 */
export class SignInThrottle {
  private readonly perEmail: SqlRateLimiter;
  private readonly perAddress: SqlRateLimiter;

  constructor(db: Database) {
    this.perEmail = new SqlRateLimiter(db, EMAIL_ATTEMPTS.perSecond, EMAIL_ATTEMPTS.burst);
    this.perAddress = new SqlRateLimiter(db, ADDRESS_ATTEMPTS.perSecond, ADDRESS_ATTEMPTS.burst);
  }

  /** Takes one attempt for the address and the email; returns 0 when allowed, else the seconds to wait. */
  async admit(email: string, address: string): Promise<number> {
    const addressWait = await this.perAddress.take(ADDRESS_BUCKET + address);
    if (addressWait > 0) return addressWait;
    const emailWait = await this.perEmail.take(emailBucket(email));
    if (emailWait > 0) await this.perAddress.giveBack(ADDRESS_BUCKET + address);
    return emailWait;
  }

  /** The attempt succeeded: it counts against neither bucket. */
  async forgive(email: string, address: string): Promise<void> {
    await this.perEmail.giveBack(emailBucket(email));
    await this.perAddress.giveBack(ADDRESS_BUCKET + address);
  }
}

function emailBucket(email: string): string {
  return EMAIL_BUCKET + createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
}

export function tooManyAttempts(waitSeconds: number): ApiError {
  return new ApiError(
    'rate_limited',
    `Too many sign-in attempts. Wait ${waitSeconds} seconds, then try again.`,
    [],
    { 'Retry-After': String(waitSeconds) },
  );
}
