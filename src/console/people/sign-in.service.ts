import type {
  ConsoleSession,
  ConsoleSessionsRepository,
} from '../../../infrastructure/console/console-sessions.repository';
import type {
  ConsoleUserCredentials,
  ConsoleUsersRepository,
} from '../../../infrastructure/console/console-users.repository';
import { verifyPassword } from '../../../infrastructure/console/passwords';
import { requiresSecondFactor } from '../../../infrastructure/console/session-policy';
import { ApiError } from '../../common/errors';
import type { SecondFactor } from './second-factor';
import { type SignInThrottle, tooManyAttempts } from './sign-in-throttle';

/** A checked password: the user its email named, when one exists, and whether it let them in. */
export type PasswordCheck =
  | { accepted: true; user: ConsoleUserCredentials }
  | { accepted: false; user: ConsoleUserCredentials | undefined };

export interface CodeCheck {
  accepted: boolean;
  user: ConsoleUserCredentials;
  /** The person had no second factor: an accepted code has just turned it on. */
  settingUp: boolean;
}

/**
 * Signing in to the console: a password, then a code for those who need a second factor. Every
 * attempt is throttled before any hash is computed; only failures keep their tokens.
 */
export class SignInService {
  constructor(
    private readonly users: ConsoleUsersRepository,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly secondFactor: SecondFactor,
    private readonly throttle: SignInThrottle,
  ) {}

  /** Throws `rate_limited` past the throttle, and `unauthorized` for a suspended account's user. */
  async checkPassword(email: string, password: string, address: string): Promise<PasswordCheck> {
    const wait = await this.throttle.admit(email, address);
    if (wait > 0) throw tooManyAttempts(wait);
    const user = email && password ? await this.users.findByEmail(email) : undefined;
    // A missing user costs a hash too, so the answer's timing does not tell which emails exist.
    const matches = await verifyPassword(password, user?.password_hash ?? UNKNOWN_USER_HASH);
    if (!user || !matches || user.disabled_at !== null) return { accepted: false, user };
    await this.throttle.forgive(email, address);
    if (user.account_status !== 'active') throw ApiError.accountSuspended();
    return { accepted: true, user };
  }

  /** A session for a user whose password was accepted; it opens pages at once unless a second factor is due. */
  async startSession(user: ConsoleUserCredentials): Promise<{ token: string; needsSecondFactor: boolean }> {
    const needsSecondFactor = requiresSecondFactor(user.roles) || user.totp_enabled_at !== null;
    const { token } = await this.sessions.start(user, needsSecondFactor ? 'password_verified' : 'signed_in');
    return { token, needsSecondFactor };
  }

  /**
   * Checks the second step's code, which sets the second factor up when the person has none yet.
   * Undefined when the session's user no longer exists; throws `rate_limited` past the throttle.
   */
  async checkCode(session: ConsoleSession, code: string, address: string): Promise<CodeCheck | undefined> {
    const user = await this.users.findCredentials(session.userId);
    if (!user) return undefined;
    const wait = await this.throttle.admit(user.email, address);
    if (wait > 0) throw tooManyAttempts(wait);
    const settingUp = !session.totpEnabled;
    const accepted = settingUp
      ? await this.secondFactor.confirmSetUp(session, code)
      : await this.secondFactor.verify(session.userId, code);
    if (accepted) await this.throttle.forgive(user.email, address);
    return { accepted, user, settingUp };
  }

  /** The session passed its second step: from now on it opens pages. */
  completeSignIn(sessionId: string): Promise<void> {
    return this.sessions.completeSignIn(sessionId);
  }

  /** Turns the second factor on later, from the account page, if `code` matches the offered secret. */
  enableSecondFactor(session: ConsoleSession, code: string): Promise<boolean> {
    return this.secondFactor.confirmSetUp(session, code);
  }

  /** What setting up shows: the secret the session offers and the name an authenticator app lists. */
  async setUpOffer(session: ConsoleSession): Promise<{ secret: string; accountLabel: string }> {
    const user = await this.users.findCredentials(session.userId);
    const secret = await this.secondFactor.offeredSecret(session.id);
    return { secret, accountLabel: user?.email ?? session.displayName };
  }

  signOut(sessionId: string): Promise<void> {
    return this.sessions.end(sessionId);
  }
}

/** A valid hash of no one's password, so an unknown email takes as long as a wrong password. */
const UNKNOWN_USER_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
