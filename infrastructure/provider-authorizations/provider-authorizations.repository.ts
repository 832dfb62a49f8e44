import {
  DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS,
  type ProviderAuthorization,
  type ProviderAuthorizationStatus,
  type ProviderSignature,
} from '../../domain/providers/provider-authorization';
import type { Database } from '../storage/database';
import { keysetCursor, KeysetPosition, positionColumn } from '../storage/keyset-cursor';

/** Whose authorizations are read: one account's, in one mode. */
export interface AuthorizationScope {
  accountId: string;
  livemode: boolean;
}

export interface AuthorizationFilter {
  status?: ProviderAuthorizationStatus;
  npi?: string;
}

/** The authorization a new one for the same NPI would duplicate. */
export interface DuplicateAuthorization {
  id: string;
  status: ProviderAuthorizationStatus;
}

/** Every field of the API's object but `object`, which is the same on every row. */
type StoredField = Exclude<keyof ProviderAuthorization, 'object'>;

/**
 * The fields of a provider authorization, each stored in the column of its name, in the order the API
 * answers them. A record rather than a list so that the compiler notices a field added to
 * `ProviderAuthorization` but not here; the reads select these columns and build the object from them,
 * and the insert writes them.
 */
const STORED_FIELDS: Record<StoredField, true> = {
  id: true,
  npi: true,
  first_name: true,
  last_name: true,
  email: true,
  phone: true,
  practice: true,
  status: true,
  link_expires_at: true,
  signed_at: true,
  expires_at: true,
  revoked_at: true,
  created_at: true,
  updated_at: true,
};

const FIELDS = Object.keys(STORED_FIELDS) as StoredField[];
const COLUMNS = FIELDS.join(', ');

/** A row as the reads select it: the stored fields under their own names. */
type AuthorizationRow = Pick<ProviderAuthorization, StoredField>;

/** An authorization with whose it is, as the worker's activities and the signing page read it. */
export interface ScopedAuthorization {
  authorization: ProviderAuthorization;
  accountId: string;
  accountName: string;
  livemode: boolean;
  /** How long its signature lasts, in days. */
  periodDays: number;
}

/**
 * The read model of provider authorizations: the API creates the row (so a duplicate is refused
 * before any workflow starts), the workflow rewrites it at each change, and lists and enforcement
 * read it.
 */
export class ProviderAuthorizationsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts a new pending authorization unless the NPI already has a pending one, or a signed one
   * not yet due for renewal (`renewableFrom`: a signed one expiring before it may be renewed). The
   * row is pending and unchanged since its creation whatever the object says: only the workflow's
   * `write` moves an authorization on. `requestedFromNetwork` is the keyed network of the request
   * that asked for it (`requesterNetworkRef`), null for an address that is none.
   */
  async insertPending(
    scope: AuthorizationScope,
    authorization: ProviderAuthorization,
    terms: { periodDays: number; renewableFrom: Date },
    requestedFromNetwork: string | null,
  ): Promise<{ created: true } | { created: false; duplicate: DuplicateAuthorization }> {
    return this.db.transaction(async (tx) => {
      const [duplicate] = await tx.query<DuplicateAuthorization>(
        `SELECT id, status FROM provider_authorizations
         WHERE account_id = $1 AND livemode = $2 AND npi = $3
           AND (status = 'pending' OR (status = 'signed' AND expires_at > $4))
         ORDER BY created_at DESC LIMIT 1`,
        [scope.accountId, scope.livemode, authorization.npi, terms.renewableFrom.toISOString()],
      );
      if (duplicate) return { created: false as const, duplicate };
      const pending: AuthorizationRow = {
        ...authorization,
        status: 'pending',
        signed_at: null,
        expires_at: null,
        revoked_at: null,
        updated_at: authorization.created_at,
      };
      const inserted = await tx.query<{ id: string }>(
        `INSERT INTO provider_authorizations (account_id, livemode, period_days, requested_from_network,
           ${COLUMNS})
         VALUES ($1, $2, $3, $4, ${FIELDS.map((_field, index) => `$${index + 5}`).join(', ')})
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          scope.accountId,
          scope.livemode,
          terms.periodDays,
          requestedFromNetwork,
          ...FIELDS.map((field) => pending[field]),
        ],
      );
      if (inserted.length > 0) return { created: true as const };
      // Another request took the NPI's one pending place between the check and the insert.
      const [racing] = await tx.query<DuplicateAuthorization>(
        `SELECT id, status FROM provider_authorizations
         WHERE account_id = $1 AND livemode = $2 AND npi = $3 AND status = 'pending'`,
        [scope.accountId, scope.livemode, authorization.npi],
      );
      return { created: false as const, duplicate: racing ?? { id: authorization.id, status: 'pending' } };
    });
  }

  /** Removes a row whose workflow could not be started, so the NPI is free again. */
  async removeUnstarted(id: string): Promise<void> {
    await this.db.query(
      `DELETE FROM provider_authorizations WHERE id = $1 AND sequence = 0
         AND NOT EXISTS (SELECT 1 FROM provider_authorization_links WHERE authorization_id = $1)`,
      [id],
    );
  }

  /**
   * The workflow's write of one change; a write older than the row's (a retry that arrives late)
   * changes nothing. The signature is written once, with the signing. False when there is no row: the
   * API removed it after a start it could not confirm.
   */
  async write(
    authorization: ProviderAuthorization,
    sequence: number,
    signature?: ProviderSignature,
  ): Promise<boolean> {
    const written = await this.db.query<{ id: string }>(
      `UPDATE provider_authorizations SET
         status = $2, link_expires_at = $3, signed_at = $4, expires_at = $5, revoked_at = $6,
         updated_at = $7, sequence = $8,
         signature_typed_name = COALESCE($9, signature_typed_name),
         signature_client_address = COALESCE($10, signature_client_address),
         signature_user_agent = COALESCE($11, signature_user_agent),
         signature_text_sha256 = COALESCE($12, signature_text_sha256),
         signed_from_requester_network = COALESCE($13, signed_from_requester_network)
       WHERE id = $1 AND sequence < $8 RETURNING id`,
      [
        authorization.id,
        authorization.status,
        authorization.link_expires_at,
        authorization.signed_at,
        authorization.expires_at,
        authorization.revoked_at,
        authorization.updated_at,
        sequence,
        signature?.typed_name ?? null,
        signature?.client_address ?? null,
        signature?.user_agent ?? null,
        signature?.text_sha256 ?? null,
        // A signature taken before the mark existed has none.
        signature?.from_requester_network ?? null,
      ],
    );
    if (written.length > 0) return true;
    const [kept] = await this.db.query<{ id: string }>(
      'SELECT id FROM provider_authorizations WHERE id = $1',
      [authorization.id],
    );
    return kept !== undefined;
  }

  async find(scope: AuthorizationScope, id: string): Promise<ProviderAuthorization | undefined> {
    const [row] = await this.db.query<AuthorizationRow>(
      `SELECT ${COLUMNS} FROM provider_authorizations WHERE id = $1 AND account_id = $2 AND livemode = $3`,
      [id, scope.accountId, scope.livemode],
    );
    return row && toObject(row);
  }

  /** An authorization with its account's name and mode, for the worker and the signing page only. */
  async findScoped(id: string): Promise<ScopedAuthorization | undefined> {
    const [row] = await this.db.query<
      AuthorizationRow & { account_id: string; account_name: string; livemode: boolean; period_days: number }
    >(
      `SELECT ${FIELDS.map((field) => `a.${field}`).join(', ')}, a.account_id, a.livemode, a.period_days, accounts.name AS account_name
       FROM provider_authorizations a JOIN accounts ON accounts.id = a.account_id WHERE a.id = $1`,
      [id],
    );
    if (!row) return undefined;
    return {
      authorization: toObject(row),
      accountId: row.account_id,
      accountName: row.account_name,
      livemode: row.livemode,
      periodDays: row.period_days,
    };
  }

  /** Newest first, `limit` at most, after `after` when paging on. */
  async list(
    scope: AuthorizationScope,
    filter: AuthorizationFilter,
    page: { limit: number; after?: KeysetPosition },
  ): Promise<{ data: ProviderAuthorization[]; nextCursor: string | null }> {
    const rows = await this.db.query<AuthorizationRow & { page_position: string }>(
      `SELECT ${COLUMNS}, ${positionColumn('created_at')} AS page_position FROM provider_authorizations
       WHERE account_id = $1 AND livemode = $2
         AND ($3::text IS NULL OR status = $3)
         AND ($4::text IS NULL OR npi = $4)
         AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::text))
       ORDER BY created_at DESC, id DESC
       LIMIT $7`,
      [
        scope.accountId,
        scope.livemode,
        filter.status ?? null,
        filter.npi ?? null,
        page.after?.at ?? null,
        page.after?.id ?? null,
        page.limit + 1,
      ],
    );
    const shown = rows.slice(0, page.limit);
    const last = shown[shown.length - 1];
    return {
      data: shown.map(toObject),
      nextCursor: rows.length > page.limit && last ? keysetCursor(last.page_position, last.id) : null,
    };
  }

  /**
   * Whether the account asked for any of its authorizations, in either mode, started at `since` or
   * later, from this keyed network (`requesterNetworkRef`): a signature from there may be the
   * clinic's rather than the prescriber's. Older ones are not compared, and the sweeper clears them.
   */
  async startedFromNetwork(accountId: string, network: string, since: Date): Promise<boolean> {
    const rows = await this.db.query<{ found: number }>(
      `SELECT 1 AS found FROM provider_authorizations
       WHERE account_id = $1 AND requested_from_network = $2 AND created_at >= $3 LIMIT 1`,
      [accountId, network, since.toISOString()],
    );
    return rows.length > 0;
  }

  /**
   * Forgets where requests and signatures came from once they are past use (docs/providers.md,
   * "Retention"): the network of authorizations started before `cutoff`, which signatures are no
   * longer compared with, and the signature's address and user agent of those that ended (expired or
   * revoked) before it. At most `limit` rows of each; the sum is below `limit` only once neither has
   * more. Sweeping workers skip the rows another one holds.
   */
  async forgetOrigins(cutoff: Date, limit: number): Promise<number> {
    // Two statements, so each one's predicate is its own partial index's (migrations 0031 and 0032).
    // An expired or revoked authorization changes no more, so its `updated_at` is when it ended.
    const networks = await this.db.query<{ id: string }>(
      `UPDATE provider_authorizations SET requested_from_network = NULL
       WHERE id IN (
         SELECT id FROM provider_authorizations
         WHERE requested_from_network IS NOT NULL AND created_at < $1
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [cutoff.toISOString(), limit],
    );
    const signatures = await this.db.query<{ id: string }>(
      `UPDATE provider_authorizations SET signature_client_address = NULL, signature_user_agent = NULL
       WHERE id IN (
         SELECT id FROM provider_authorizations
         WHERE (signature_client_address IS NOT NULL OR signature_user_agent IS NOT NULL)
           AND status IN ('expired', 'revoked') AND updated_at < $1
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING id`,
      [cutoff.toISOString(), limit],
    );
    return networks.length + signatures.length;
  }

  /**
   * Which of these authorizations of the account are signed, and were signed from a network it asked
   * from: a revoked or expired one acts for no one, so the console warns of none.
   */
  async signedFromRequesterNetwork(scope: AuthorizationScope, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM provider_authorizations
       WHERE id = ANY($1::text[]) AND account_id = $2 AND livemode = $3 AND status = 'signed'
         AND signed_from_requester_network`,
      [ids, scope.accountId, scope.livemode],
    );
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Enforcement's one statement, read as the database stands (nothing is kept between requests, so a
   * setting changed or an authorization revoked through any process applies to the very next request
   * in every other): whether the account requires a signed, current authorization in this mode (its
   * row's setting, else the mode's default), and whether the NPI has one (the partial index on
   * `status = 'signed'`).
   */
  async enforcement(
    scope: AuthorizationScope,
    npi: string,
    now = new Date(),
  ): Promise<{ required: boolean; authorized: boolean }> {
    const defaults = DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS.require_provider_authorization;
    const [row] = await this.db.query<{ required: boolean; authorized: boolean }>(
      `SELECT COALESCE(
           (SELECT CASE WHEN $2 THEN require_provider_authorization_live
                        ELSE require_provider_authorization_test END
              FROM account_settings WHERE account_id = $1),
           $5::boolean) AS required,
         EXISTS (SELECT 1 FROM provider_authorizations
           WHERE account_id = $1 AND livemode = $2 AND npi = $3 AND status = 'signed' AND expires_at > $4)
           AS authorized`,
      [
        scope.accountId,
        scope.livemode,
        npi,
        now.toISOString(),
        scope.livemode ? defaults.live : defaults.test,
      ],
    );
    return row!;
  }
}

function toObject(row: AuthorizationRow): ProviderAuthorization {
  const { id, ...stored } = Object.fromEntries(
    FIELDS.map((field) => [field, row[field]]),
  ) as AuthorizationRow;
  return { id, object: 'provider_authorization', ...stored };
}
