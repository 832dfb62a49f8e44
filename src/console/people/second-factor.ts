import type { ConsoleSessionsRepository } from '../../../infrastructure/console/console-sessions.repository';
import type { ConsoleUsersRepository } from '../../../infrastructure/console/console-users.repository';
import type { SecretBox } from '../../../infrastructure/crypto/aes-gcm';
import { acceptedStep, generateTotpSecret } from './totp';

/**
 * Setting up and checking authenticator-app codes. Secrets are sealed wherever they are stored; a
 * secret being set up lives in the session that asked for it, never in the browser.
 */
export class SecondFactor {
  constructor(
    private readonly users: ConsoleUsersRepository,
    private readonly sessions: ConsoleSessionsRepository,
    private readonly secrets: SecretBox,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** The secret this session offers for set-up: the same one until a code confirms it. */
  async offeredSecret(sessionId: string): Promise<string> {
    const sealed = await this.sessions.offerTotpSecret(
      sessionId,
      this.secrets.sealText(generateTotpSecret()),
    );
    return this.secrets.openText(sealed);
  }

  /** Turns the second factor on if `code` is right for the secret the session offered. */
  async confirmSetUp(session: { id: string; userId: string }, code: string): Promise<boolean> {
    const sealed = await this.sessions.offeredTotpSecret(session.id);
    if (!sealed) return false;
    const step = acceptedStep(this.secrets.openText(sealed), code, this.now(), null);
    if (step === undefined) return false;
    if (!(await this.users.enableTotp(session.userId, sealed, step))) return false;
    await this.sessions.takeOfferedTotpSecret(session.id);
    return true;
  }

  /** Whether `code` is right and newer than every code this user signed in with before. */
  async verify(userId: string, code: string): Promise<boolean> {
    const user = await this.users.findCredentials(userId);
    if (!user?.totp_secret_sealed || user.totp_enabled_at === null) return false;
    const lastStep = user.totp_last_step === null ? null : Number(user.totp_last_step);
    const step = acceptedStep(this.secrets.openText(user.totp_secret_sealed), code, this.now(), lastStep);
    return step !== undefined && (await this.users.acceptTotpStep(userId, step));
  }
}
