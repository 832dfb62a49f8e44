import { createHash, randomBytes } from 'node:crypto';

import type { Role } from '../../domain/accounts/roles';
import { newId } from '../../domain/ids';
import type { Database } from '../storage/database';
import { ConsoleUser, insertConsoleUser } from './console-users.repository';

/** Long enough to pass on over a weekend, short enough that a forgotten link soon opens nothing. */
export const INVITATION_LIFETIME_MS = 72 * 60 * 60 * 1000;

export interface OpenInvitation {
  id: string;
  roles: Role[];
  created_at: string;
  expires_at: string;
}

export type InvitationState = 'open' | 'closed' | 'unknown';

export interface NewPerson {
  email: string;
  displayName: string;
  passwordHash: string;
}

export type Acceptance =
  | { outcome: 'created'; user: ConsoleUser; invitationId: string }
  | { outcome: 'closed' }
  | { outcome: 'email_taken' };

function digest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The unique index on lower(email): another user already signs in with this email. */
class EmailTaken extends Error {}

/** Single-use invitations to an account. Tokens are 256 random bits; only their digests are stored. */
export class InvitationsRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async create(input: {
    accountId: string;
    roles: Role[];
    invitedBy: string;
  }): Promise<{ id: string; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const id = newId('consoleInvitation');
    await this.db.query(
      `INSERT INTO console_invitations (id, account_id, token_digest, roles, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        id,
        input.accountId,
        digest(token),
        input.roles,
        input.invitedBy,
        new Date(this.now() + INVITATION_LIFETIME_MS),
      ],
    );
    return { id, token };
  }

  /** The account's invitations that can still be used, newest first: what they grant and until when. */
  async listOpen(accountId: string): Promise<OpenInvitation[]> {
    return this.db.query<OpenInvitation>(
      `SELECT id, roles, created_at, expires_at FROM console_invitations
       WHERE account_id = $1 AND accepted_at IS NULL AND expires_at > $2
       ORDER BY created_at DESC, id DESC`,
      [accountId, new Date(this.now())],
    );
  }

  /** Whether a link can still be used: open, already used or expired, or never issued. */
  async stateOf(token: string): Promise<InvitationState> {
    const [row] = await this.db.query<{ open: boolean }>(
      `SELECT accepted_at IS NULL AND expires_at > $2 AS open FROM console_invitations WHERE token_digest = $1`,
      [digest(token), new Date(this.now())],
    );
    if (!row) return 'unknown';
    return row.open ? 'open' : 'closed';
  }

  /**
   * Uses the invitation and creates its person in one transaction: of two acceptances racing, one
   * creates a user and the other finds the link closed; an email already taken leaves the link open.
   */
  async accept(token: string, person: NewPerson): Promise<Acceptance> {
    try {
      return await this.db.transaction(async (tx) => {
        const [invitation] = await tx.query<{ id: string; account_id: string; roles: Role[] }>(
          `UPDATE console_invitations SET accepted_at = $2
           WHERE token_digest = $1 AND accepted_at IS NULL AND expires_at > $2
             AND account_id IN (SELECT id FROM accounts WHERE status = 'active')
           RETURNING id, account_id, roles`,
          [digest(token), new Date(this.now())],
        );
        if (!invitation) return { outcome: 'closed' } as const;
        const [taken] = await tx.query('SELECT 1 FROM console_users WHERE lower(email) = lower($1)', [
          person.email.trim(),
        ]);
        if (taken) throw new EmailTaken();
        const user = await insertConsoleUser(tx, {
          accountId: invitation.account_id,
          email: person.email,
          displayName: person.displayName,
          roles: invitation.roles,
          passwordHash: person.passwordHash,
        });
        await tx.query('UPDATE console_invitations SET accepted_by = $2 WHERE id = $1', [
          invitation.id,
          user.id,
        ]);
        return { outcome: 'created', user, invitationId: invitation.id } as const;
      });
    } catch (error) {
      if (error instanceof EmailTaken || (error as { code?: string }).code === '23505') {
        return { outcome: 'email_taken' };
      }
      throw error;
    }
  }
}
