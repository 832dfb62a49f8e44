import type { Role } from '../../../domain/accounts/roles';
import type {
  ConsoleUser,
  ConsoleUsersRepository,
} from '../../../infrastructure/console/console-users.repository';
import type {
  Acceptance,
  InvitationState,
  InvitationsRepository,
  OpenInvitation,
} from '../../../infrastructure/console/invitations.repository';
import { hashPassword } from '../../../infrastructure/console/passwords';
import { type SignInThrottle, tooManyAttempts } from './sign-in-throttle';

/** An account's people: those who sign in to its console, and the invitations that let others join. */
export class PeopleService {
  constructor(
    private readonly users: ConsoleUsersRepository,
    private readonly invitations: InvitationsRepository,
    private readonly throttle: SignInThrottle,
  ) {}

  async ofAccount(accountId: string): Promise<{ people: ConsoleUser[]; openInvitations: OpenInvitation[] }> {
    const [people, openInvitations] = await Promise.all([
      this.users.list(accountId),
      this.invitations.listOpen(accountId),
    ]);
    return { people, openInvitations };
  }

  /** The invitation and its token, the link's only credential, which is never available again. */
  invite(invitation: {
    accountId: string;
    roles: Role[];
    invitedBy: string;
  }): Promise<{ id: string; token: string }> {
    return this.invitations.create(invitation);
  }

  invitationState(token: string): Promise<InvitationState> {
    return this.invitations.stateOf(token);
  }

  /**
   * Creates the invited person's user. "That email already signs in" tells who has a user, so tries
   * are throttled like sign-ins (throws `rate_limited`) before any password is hashed, and only an
   * accepted invitation gives its tokens back.
   */
  async acceptInvitation(
    token: string,
    person: { displayName: string; email: string; password: string },
    address: string,
  ): Promise<Acceptance> {
    const wait = await this.throttle.admit(person.email, address);
    if (wait > 0) throw tooManyAttempts(wait);
    const acceptance = await this.invitations.accept(token, {
      displayName: person.displayName,
      email: person.email,
      passwordHash: await hashPassword(person.password),
    });
    if (acceptance.outcome === 'created') await this.throttle.forgive(person.email, address);
    return acceptance;
  }
}
