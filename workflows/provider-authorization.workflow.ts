import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  log,
  patched,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';

import type { createProviderAuthorizationActivities } from '../activities/provider-authorizations';
import { AUTHORIZATION_MAIL_NOT_SENT, INVALID_STATE } from '../domain/failures';
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
import { AUTHORIZATION_CREATED_BEFORE_MESSAGES } from './patches';

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

type ChangeAudit = { action: ProviderAuthorizationAuditAction; actor: AuthorizationActor; requestId: string };

/**
 * One authorization's state, and the one place that moves its status (`change`). A change shows at
 * once; its write (read model, event, audit) is an activity only the workflow's own steps schedule
 * (`record`): a signing or revocation handler waits for its write instead of scheduling it, so no
 * command of a handler comes between an update's acceptance and the workflow's reaction to it, and
 * every run replays as it ran.
 */
class AuthorizationRun {
  authorization: ProviderAuthorization;
  private sequence = 0;
  private recordedSequence = 0;
  private readonly unrecorded: Array<Parameters<typeof recordAuthorizationChange>[0]> = [];

  constructor(readonly input: ProviderAuthorizationInput) {
    this.authorization = input.authorization;
  }

  /** Moves the status now, for every message handled from here on; returns the change's sequence. */
  change(
    status: ProviderAuthorizationStatus,
    fields: Partial<ProviderAuthorization>,
    audit: ChangeAudit,
    signature?: ProviderSignature,
  ): number {
    this.authorization = { ...this.authorization, ...fields, status, updated_at: now() };
    this.sequence += 1;
    this.unrecorded.push({
      accountId: this.input.accountId,
      livemode: this.input.livemode,
      authorization: this.authorization,
      sequence: this.sequence,
      ...audit,
      signature,
    });
    return this.sequence;
  }

  /** Writes the changes not yet written, in order: the read model, `provider_authorization.updated`, the audit. */
  async record(): Promise<void> {
    for (let next = this.unrecorded.shift(); next; next = this.unrecorded.shift()) {
      await recordAuthorizationChange(next);
      this.recordedSequence = next.sequence;
    }
  }

  /** A handler's answer: the authorization once the workflow has written its change. */
  async recorded(sequence: number): Promise<ProviderAuthorization> {
    await condition(() => this.recordedSequence >= sequence);
    return this.authorization;
  }

  /** A change the workflow's own steps make, written before the next step. */
  async moveTo(
    status: ProviderAuthorizationStatus,
    fields: Partial<ProviderAuthorization>,
    audit: ChangeAudit,
  ) {
    this.change(status, fields, audit);
    await this.record();
  }

  /** A change the clock makes; no request made it, so the trail names the workflow, as the retention purge does. */
  lapse(fields: Partial<ProviderAuthorization>): Promise<void> {
    return this.moveTo('expired', fields, {
      action: 'provider_authorization.expired',
      actor: CLOCK(this.authorization.id),
      requestId: this.authorization.id,
    });
  }

  /**
   * Mail the clock sends (its reminders are audited as the system's, under the workflow's id); false
   * when it cannot be sent at all (no live mail connector, SMTP refused it for good). Mail is how the
   * prescriber hears of the authorization, never what decides its life: the caller chooses what a
   * message that never left means.
   */
  async mail(purpose: AuthorizationMailPurpose): Promise<boolean> {
    try {
      await sendAuthorizationMail({
        authorizationId: this.authorization.id,
        purpose,
        actor: CLOCK(this.authorization.id),
        requestId: this.authorization.id,
      });
      return true;
    } catch (error) {
      if (!(error instanceof ActivityFailure) || !isMailNotSent(error.cause)) throw error;
      log.warn('Provider authorization mail not sent', { authorizationId: this.authorization.id, purpose });
      return false;
    }
  }

  /**
   * Waits for `done` at most `ms` (none when the time has already passed), then writes what a handler
   * changed meanwhile; true when `done` came.
   */
  async waitUntil(done: () => boolean, ms: number): Promise<boolean> {
    const came = done() || (ms > 0 && (await condition(done, ms)));
    await this.record();
    return came;
  }

  /** Ends once every change a handler made is written, so its caller gets an answer. */
  async finished(): Promise<ProviderAuthorization> {
    for (;;) {
      await this.record();
      if (allHandlersFinished()) return this.authorization;
      await condition(() => this.unrecorded.length > 0 || allHandlersFinished());
    }
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
      const sequence = run.change(
        'signed',
        { signed_at: signedAt, expires_at: expiresAt, link_expires_at: null },
        {
          action: 'provider_authorization.signed',
          actor: { type: 'prescriber', id: run.authorization.id },
          requestId,
        },
        signature,
      );
      return run.recorded(sequence);
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
      run.recorded(
        run.change(
          'revoked',
          { revoked_at: now(), link_expires_at: null },
          { action: 'provider_authorization.revoked', actor, requestId },
        ),
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
  const created: ChangeAudit = {
    action: 'provider_authorization.created',
    actor: input.actor,
    requestId: input.requestId,
  };
  // A message that came with the start is handled as its handler is registered: the creation comes
  // first, so a revocation sent at once is never undone by it.
  if (patched(AUTHORIZATION_CREATED_BEFORE_MESSAGES)) {
    run.change('pending', {}, created);
    acceptMessages(run);
    await run.record();
  } else {
    acceptMessages(run);
    await run.moveTo('pending', {}, created);
  }
  // A link the prescriber never received cannot be signed: the authorization lapses at once, which
  // frees the NPI for one started again once the mail is put right.
  if (run.authorization.status === 'pending' && !(await run.mail('provider_authorization.signing_link'))) {
    await run.record();
    if (run.authorization.status === 'pending') await run.lapse({ link_expires_at: null });
    return run.finished();
  }

  const answered = () => run.authorization.status !== 'pending';
  if (!(await run.waitUntil(answered, clock.signingReminderAfterMs))) {
    await run.mail('provider_authorization.signing_reminder');
  }
  const linkExpiresAt = Date.parse(run.authorization.link_expires_at!);
  if (!(await run.waitUntil(answered, linkExpiresAt - Date.now()))) {
    await run.lapse({ link_expires_at: null });
    return run.finished();
  }
  // The signing's own write came first (waitUntil): the confirmation's revoke link lapses with the signature.
  if (run.authorization.status !== 'signed') return run.finished();

  await run.mail('provider_authorization.confirmation');
  const expiresAt = Date.parse(run.authorization.expires_at!);
  const revoked = () => run.authorization.status === 'revoked';
  // A period no longer than the reminder's lead gets no renewal reminder: it would come with the confirmation.
  const remindAt = expiresAt - clock.renewalReminderBeforeMs;
  if (remindAt > Date.parse(run.authorization.signed_at!)) {
    if (!(await run.waitUntil(revoked, remindAt - Date.now()))) {
      await run.mail('provider_authorization.renewal_reminder');
    }
  }
  if (!(await run.waitUntil(revoked, expiresAt - Date.now()))) await run.lapse({});
  return run.finished();
}

/** The workflow's clock as the contract's timestamps. */
const now = (): string => new Date(Date.now()).toISOString();

function isMailNotSent(cause: unknown): boolean {
  return cause instanceof ApplicationFailure && cause.type === AUTHORIZATION_MAIL_NOT_SENT;
}

function refusal(message: string): ApplicationFailure {
  return ApplicationFailure.create({ type: INVALID_STATE, nonRetryable: true, message });
}
