import { Client, WorkflowNotFoundError } from '@temporalio/client';

import { DAY_MS } from '../../domain/durations';
import { newId } from '../../domain/ids';
import { registryNameMatches } from '../../domain/providers/name-match';
import { RegistryUnavailableError, type NpiRegistry } from '../../domain/providers/npi-registry';
import type {
  AuthorizationActor,
  ProviderAuthorization,
  ProviderAuthorizationSettings,
  ProviderSignature,
} from '../../domain/providers/provider-authorization';
import { addressTo } from '../../domain/temporal/message-address';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { ProviderSettings, TemporalSettings } from '../../infrastructure/config/config';
import type {
  AccountSettingsRepository,
  SettingsChanges,
} from '../../infrastructure/provider-authorizations/account-settings.repository';
import type {
  ProviderAuthorizationsRepository,
  ScopedAuthorization,
} from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import type {
  LinkPurpose,
  SigningLinksRepository,
} from '../../infrastructure/provider-authorizations/signing-links.repository';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import type { ProviderAuthorizationInput } from '../../workflows/provider-authorization.workflow';
import {
  revokeAuthorizationUpdate,
  signAuthorizationUpdate,
} from '../../workflows/provider-authorization.messages';
import { DEFAULT_PAGE_SIZE } from '../common/dto/page-query';
import { ApiError } from '../common/errors';
import { requireLiveKeyFor } from '../common/live-data';
import type {
  CreateProviderAuthorizationDto,
  ListProviderAuthorizationsQuery,
} from './provider-authorizations.dto';
import { requesterNetworkRef } from './request-origin';

/** What a 503 `registry_unavailable` asks clients to wait. */
export const REGISTRY_RETRY_AFTER_SECONDS = 30;

export const PROVIDER_AUTHORIZATION_WORKFLOW = 'providerAuthorizationWorkflow';

/** The registry each mode asks: `NpiRegistries` (infrastructure/providers), or a test's own. */
export interface RegistriesByMode {
  forMode(livemode: boolean): NpiRegistry;
}

/**
 * Provider authorizations: the registry check and the duplicate rule before a workflow starts, the
 * workflow's updates for revocation and signing, and reads from the database's read model.
 */
export class ProviderAuthorizationsService {
  constructor(
    private readonly client: Client,
    private readonly temporal: Pick<TemporalSettings, 'taskQueue'>,
    private readonly clock: ProviderSettings,
    private readonly registries: RegistriesByMode,
    private readonly authorizations: ProviderAuthorizationsRepository,
    private readonly settings: AccountSettingsRepository,
    private readonly links: SigningLinksRepository,
    /** Whether live mail can reach a prescriber of the account: its `mail` connector, or a local install's outbox. */
    private readonly liveMailReady: (accountId: string) => Promise<boolean>,
    /** The server's key for keyed references (`PATIENT_REF_KEY`), which hashes requesters' networks. */
    private readonly refKey: Buffer,
  ) {}

  async create(
    principal: Principal,
    body: CreateProviderAuthorizationDto,
    actor: AuthorizationActor,
    request: { requestId: string; clientAddress: string },
  ): Promise<ProviderAuthorization> {
    const { requestId } = request;
    if (principal.livemode && !(await this.liveMailReady(principal.accountId))) {
      throw new ApiError(
        'invalid_state',
        "Live provider authorizations mail the prescriber their signing link through the account's mail " +
          'connector, and none is configured; an admin sets it with PUT /connectors/mail.',
      );
    }
    await this.checkRegistry(principal.livemode, body);
    const scope = scopeOf(principal);
    const createdAt = new Date();
    const authorization: ProviderAuthorization = {
      id: newId('providerAuthorization', createdAt.getTime()),
      object: 'provider_authorization',
      npi: body.npi,
      first_name: body.first_name.trim(),
      last_name: body.last_name.trim(),
      email: body.email,
      phone: body.phone ?? null,
      practice: body.practice ?? null,
      status: 'pending',
      link_expires_at: new Date(createdAt.getTime() + this.clock.signingLinkTtlMs).toISOString(),
      signed_at: null,
      expires_at: null,
      revoked_at: null,
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
    };
    const { provider_authorization_period_days: periodDays } = await this.settings.get(principal.accountId);
    const claimed = await this.authorizations.insertPending(
      scope,
      authorization,
      {
        periodDays,
        renewableFrom: new Date(createdAt.getTime() + this.clock.renewalReminderBeforeMs),
      },
      requesterNetworkRef(this.refKey, principal.accountId, request.clientAddress) ?? null,
    );
    if (!claimed.created) {
      const { id, status } = claimed.duplicate;
      throw new ApiError(
        'invalid_state',
        `NPI ${body.npi} already has a ${status} authorization (${id}) in this account and mode. ` +
          (status === 'pending'
            ? 'Revoke it first to send a new link.'
            : 'A new one can be started once it is due for renewal, or after revoking it.'),
        [{ field: 'npi', issue: `has the ${status} authorization ${id}` }],
      );
    }
    const input: ProviderAuthorizationInput = {
      accountId: principal.accountId,
      livemode: principal.livemode,
      authorization,
      clock: {
        signingLinkTtlMs: this.clock.signingLinkTtlMs,
        signingReminderAfterMs: this.clock.signingReminderAfterMs,
        renewalReminderBeforeMs: this.clock.renewalReminderBeforeMs,
        periodMs: periodDays * DAY_MS,
      },
      actor,
      requestId,
    };
    try {
      await this.client.workflow.start(PROVIDER_AUTHORIZATION_WORKFLOW, {
        workflowId: authorization.id,
        taskQueue: this.temporal.taskQueue,
        args: [input],
        workflowIdConflictPolicy: 'FAIL',
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      // A start whose answer was lost may have started: its row stays for its workflow to write. Where
      // Temporal cannot say, the row goes, and a workflow that did start ends at its first write.
      if (!(await this.started(authorization.id))) {
        await this.authorizations.removeUnstarted(authorization.id);
      }
      throw error;
    }
    return authorization;
  }

  private async started(id: string): Promise<boolean> {
    try {
      await this.client.workflow.getHandle(id).describe();
      return true;
    } catch {
      return false;
    }
  }

  async list(principal: Principal, query: ListProviderAuthorizationsQuery) {
    const { data, nextCursor } = await this.authorizations.list(
      scopeOf(principal),
      { status: query.status, npi: query.npi },
      {
        limit: query.limit ?? DEFAULT_PAGE_SIZE,
        ...(query.cursor && { after: keysetPosition(query.cursor) }),
      },
    );
    return { object: 'list' as const, data, has_more: nextCursor !== null, next_cursor: nextCursor };
  }

  /** Which of these authorizations were signed from a network the account asked from (the console's warning). */
  signedFromRequesterNetwork(principal: Principal, ids: string[]): Promise<Set<string>> {
    return this.authorizations.signedFromRequesterNetwork(scopeOf(principal), ids);
  }

  async get(principal: Principal, id: string): Promise<ProviderAuthorization> {
    const found = await this.authorizations.find(scopeOf(principal), id);
    if (!found)
      throw ApiError.notFound('No provider authorization with this id exists in your account and mode.');
    return found;
  }

  /** Revokes a pending or signed authorization of the caller's account and mode. */
  async revoke(
    principal: Principal,
    id: string,
    actor: AuthorizationActor,
    requestId: string,
  ): Promise<ProviderAuthorization> {
    const current = await this.get(principal, id);
    return this.revokeById(current, actor, requestId);
  }

  /** The prescriber's revocation through their link, or the clinic's through the API or console. */
  async revokeById(
    current: ProviderAuthorization,
    actor: AuthorizationActor,
    requestId: string,
  ): Promise<ProviderAuthorization> {
    if (current.status !== 'pending' && current.status !== 'signed') throw finalRefusal(current);
    return this.update(current, () =>
      this.client.workflow
        .getHandle(current.id)
        .executeUpdate(revokeAuthorizationUpdate, { args: [addressTo(current.id, { actor, requestId })] }),
    );
  }

  /**
   * The prescriber's signature from the signing page; the workflow refuses it unless pending and
   * unlapsed. A signature from a network the account asked for an authorization from, within the
   * retention, is marked.
   */
  async sign(
    found: ScopedAuthorization,
    signed: Omit<ProviderSignature, 'from_requester_network'>,
    requestId: string,
  ) {
    const current = found.authorization;
    if (current.status !== 'pending') throw finalRefusal(current);
    const network = requesterNetworkRef(this.refKey, found.accountId, signed.client_address);
    const since = new Date(Date.now() - this.clock.requestOriginRetentionDays * DAY_MS);
    const signature: ProviderSignature = {
      ...signed,
      from_requester_network:
        network !== undefined &&
        (await this.authorizations.startedFromNetwork(found.accountId, network, since)),
    };
    return this.update(current, () =>
      this.client.workflow
        .getHandle(current.id)
        .executeUpdate(signAuthorizationUpdate, { args: [addressTo(current.id, { signature, requestId })] }),
    );
  }

  /**
   * The authorization a prescriber's live link of this purpose opens, while it is in the status the
   * purpose needs (pending to sign, signed to revoke); undefined for any other token, alike.
   */
  async openLink(token: string, purpose: LinkPurpose): Promise<ScopedAuthorization | undefined> {
    const id = await this.links.open(token, purpose);
    const found = id === undefined ? undefined : await this.authorizations.findScoped(id);
    const wanted = purpose === 'sign' ? 'pending' : 'signed';
    return found?.authorization.status === wanted ? found : undefined;
  }

  /** Marks a link used once what it opened was done. */
  async useLink(token: string): Promise<void> {
    await this.links.use(token);
  }

  async accountSettings(principal: Principal): Promise<ProviderAuthorizationSettings> {
    return this.settings.get(principal.accountId);
  }

  /**
   * Turning live enforcement off lets live requests act for prescribers who never agreed, and the
   * period decides how long a live signature lasts: both need a live admin key (or a console user).
   */
  async updateAccountSettings(
    principal: Principal,
    changes: SettingsChanges,
  ): Promise<ProviderAuthorizationSettings> {
    const reachesLive =
      changes.require_provider_authorization?.live !== undefined ||
      changes.provider_authorization_period_days !== undefined;
    if (reachesLive)
      requireLiveKeyFor(principal, 'Changing live enforcement or the period of provider authorizations');
    return this.settings.update(principal.accountId, changes);
  }

  /** A workflow that has ended (lapsed a moment ago) answers as its final status does. */
  private async update(
    current: ProviderAuthorization,
    send: () => Promise<ProviderAuthorization>,
  ): Promise<ProviderAuthorization> {
    try {
      return await send();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw finalRefusal({ ...current, status: 'expired' });
      throw error;
    }
  }

  /**
   * The registry's say on the NPI and name. Refusals name the field only: the registry's record is
   * never echoed back (contract section 13).
   */
  private async checkRegistry(livemode: boolean, body: CreateProviderAuthorizationDto): Promise<void> {
    let record;
    try {
      record = await this.registries.forMode(livemode).byNpi(body.npi);
    } catch (error) {
      if (!(error instanceof RegistryUnavailableError)) throw error;
      throw new ApiError(
        'registry_unavailable',
        'The NPI registry cannot be reached, so the NPI could not be checked; nothing was created. Retry shortly.',
        [],
        { 'Retry-After': String(REGISTRY_RETRY_AFTER_SECONDS) },
      );
    }
    const refuse = (field: string, issue: string): never => {
      throw new ApiError('validation_error', 'The request did not pass validation.', [{ field, issue }]);
    };
    if (!record) return refuse('npi', 'is not an NPI the NPI registry knows');
    if (record.type !== 'individual')
      return refuse('npi', "is an organization's NPI (NPI-2); name the prescriber's own NPI");
    if (!record.active) return refuse('npi', 'is deactivated in the NPI registry');
    if (!registryNameMatches(record, body.first_name, body.last_name)) {
      throw new ApiError('validation_error', 'The request did not pass validation.', [
        { field: 'first_name', issue: "does not match the NPI registry's record of this NPI" },
        { field: 'last_name', issue: "does not match the NPI registry's record of this NPI" },
      ]);
    }
  }
}

function scopeOf(principal: Principal) {
  return { accountId: principal.accountId, livemode: principal.livemode };
}

function finalRefusal(current: Pick<ProviderAuthorization, 'id' | 'status'>): ApiError {
  return new ApiError(
    'invalid_state',
    `This authorization is ${current.status}; only a pending authorization can be signed and only a pending or signed one revoked.`,
  );
}
