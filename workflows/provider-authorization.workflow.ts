import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';

import type { createProviderAuthorizationActivities } from '../activities/provider-authorizations';
import { INVALID_STATE } from '../domain/failures';
import type {
  AuthorizationActor,
  AuthorizationMailPurpose,
  ProviderAuthorization,
  ProviderAuthorizationAuditAction,
  ProviderAuthorizationStatus,
  ProviderSignature,
} from '../domain/providers/provider-authorization';
import {
  getAuthorizationQuery,
  revokeAuthorizationUpdate,
  signAuthorizationUpdate,
  type RevokeAuthorization,
  type SignAuthorization,
} from './provider-authorization.messages';

/** The clock of one authorization, from `config.providers` and the account's period at creation. */
export interface AuthorizationClock {
  signingLinkTtlMs: number;
  signingReminderAfterMs: number;
  renewalReminderBeforeMs: number;
  /** How long a signature lasts (the account's period). */
  periodMs: number;
}

export interface ProviderAuthorizationInput {
  accountId: string;
  livemode: boolean;
  /** As the API created it: pending, with its link's lapse. */
  authorization: ProviderAuthorization;
  clock: AuthorizationClock;
  actor: AuthorizationActor;
  requestId: string;
}

/** Database writes, events and mail: short, retried until they succeed (the database may restart). */
const { recordAuthorizationChange, sendAuthorizationMail } = proxyActivities<
  ReturnType<typeof createProviderAuthorizationActivities>
>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
});

/** The clock acts as the system; the audit trail names the authorization it acted on. */
const CLOCK = (id: string): AuthorizationActor => ({ type: 'system', id });

/** One authorization's state, and the one place that moves its status (`moveTo`). */
class AuthorizationRun {
  authorization: ProviderAuthorization;
  private sequence = 0;

  constructor(readonly input: ProviderAuthorizationInput) {
    this.authorization = input.authorization;
  }

  /** Writes the read model, publishes `provider_authorization.updated` and audits the change. */
  async moveTo(
    status: ProviderAuthorizationStatus,
    fields: Partial<ProviderAuthorization>,
    audit: { action: ProviderAuthorizationAuditAction; actor: AuthorizationActor; requestId: string },
    signature?: ProviderSignature,
  ): Promise<ProviderAuthorization> {
    // The state changes before the first await, so a message handled meanwhile sees the new status.
    const moved = { ...this.authorization, ...fields, status, updated_at: now() };
    this.authorization = moved;
    this.sequence += 1;
    await recordAuthorizationChange({
      accountId: this.input.accountId,
      livemode: this.input.livemode,
      authorization: moved,
      sequence: this.sequence,
      ...audit,
      signature,
    });
    return moved;
  }

  /** A change the clock makes; no request made it, so the trail names the workflow, as the retention purge does. */
  lapse(fields: Partial<ProviderAuthorization>): Promise<ProviderAuthorization> {
    return this.moveTo('expired', fields, {
      action: 'provider_authorization.expired',
      actor: CLOCK(this.authorization.id),
      requestId: this.authorization.id,
    });
  }

  /** Mail the clock sends (its reminders are audited as the system's, under the workflow's id). */
  mail(purpose: AuthorizationMailPurpose): Promise<void> {
    return sendAuthorizationMail({
      authorizationId: this.authorization.id,
      purpose,
      actor: CLOCK(this.authorization.id),
      requestId: this.authorization.id,
    });
  }

  /** Ends once a revocation or signing in flight has written its change, so its caller gets an answer. */
  async finished(): Promise<ProviderAuthorization> {
    await condition(allHandlersFinished);
    return this.authorization;
  }
}

/**
 * Signing and revoking: validators only check (a refusal is INVALID_STATE, which the API answers with
 * 409 and the signing page with its closed-link page); the handlers move the status.
 */
function acceptMessages(run: AuthorizationRun): void {
  setHandler(getAuthorizationQuery, () => run.authorization);
  setHandler(
    signAuthorizationUpdate,
    ({ signature, requestId }: SignAuthorization) => {
      const signedAt = now();
      const expiresAt = new Date(Date.parse(signedAt) + run.input.clock.periodMs).toISOString();
      return run.moveTo(
        'signed',
        { signed_at: signedAt, expires_at: expiresAt, link_expires_at: null },
        {
          action: 'provider_authorization.signed',
          actor: { type: 'prescriber', id: run.authorization.id },
          requestId,
        },
        signature,
      );
    },
    {
      validator: (_sign: SignAuthorization) => {
        const { status, link_expires_at } = run.authorization;
        if (status === 'pending' && Date.now() < Date.parse(link_expires_at!)) return;
        const why = status === 'pending' ? 'past its signing link' : status;
        throw refusal(`This authorization is ${why}; it can no longer be signed.`);
      },
    },
  );
  setHandler(
    revokeAuthorizationUpdate,
    ({ actor, requestId }: RevokeAuthorization) =>
      run.moveTo(
        'revoked',
        { revoked_at: now(), link_expires_at: null },
        { action: 'provider_authorization.revoked', actor, requestId },
      ),
    {
      validator: (_revoke: RevokeAuthorization) => {
        const { status } = run.authorization;
        if (status === 'pending' || status === 'signed') return;
        throw refusal(`This authorization is ${status}; only a pending or signed one can be revoked.`);
      },
    },
  );
}

/**
 * One prescriber's authorization of an account (docs/providers.md): mailed a signing link, reminded,
 * signed or lapsed, reminded before it lapses, revoked at any time.
 */
export async function providerAuthorizationWorkflow(
  input: ProviderAuthorizationInput,
): Promise<ProviderAuthorization> {
  const { clock } = input;
  const run = new AuthorizationRun(input);
  acceptMessages(run);

  await run.moveTo(
    'pending',
    {},
    {
      action: 'provider_authorization.created',
      actor: input.actor,
      requestId: input.requestId,
    },
  );
  await run.mail('provider_authorization.signing_link');

  const answered = () => run.authorization.status !== 'pending';
  if (!(await waitUntil(answered, clock.signingReminderAfterMs))) {
    await run.mail('provider_authorization.signing_reminder');
  }
  const linkExpiresAt = Date.parse(run.authorization.link_expires_at!);
  if (!(await waitUntil(answered, linkExpiresAt - Date.now()))) {
    await run.lapse({ link_expires_at: null });
    return run.finished();
  }
  // The signing's own write comes first: the confirmation's revoke link lapses with the signature.
  await condition(allHandlersFinished);
  if (run.authorization.status !== 'signed') return run.finished();

  await run.mail('provider_authorization.confirmation');
  const expiresAt = Date.parse(run.authorization.expires_at!);
  const revoked = () => run.authorization.status === 'revoked';
  if (!(await waitUntil(revoked, expiresAt - clock.renewalReminderBeforeMs - Date.now()))) {
    await run.mail('provider_authorization.renewal_reminder');
  }
  if (!(await waitUntil(revoked, expiresAt - Date.now()))) await run.lapse({});
  return run.finished();
}

/** Waits for `done` at most `ms` (none when the time has already passed); true when it came. */
async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  if (done()) return true;
  if (ms <= 0) return false;
  return condition(done, ms);
}

/** The workflow's clock as the contract's timestamps. */
const now = (): string => new Date(Date.now()).toISOString();

function refusal(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: INVALID_STATE, nonRetryable: true, message });
}
