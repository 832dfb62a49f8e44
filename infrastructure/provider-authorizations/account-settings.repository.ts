import {
  DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS,
  type ProviderAuthorizationSettings,
} from '../../domain/providers/provider-authorization';
import type { Database } from '../storage/database';

interface SettingsRow {
  require_provider_authorization_test: boolean;
  require_provider_authorization_live: boolean;
  provider_authorization_period_days: number;
}

const COLUMNS =
  'require_provider_authorization_test, require_provider_authorization_live, provider_authorization_period_days';

export interface SettingsChanges {
  require_provider_authorization?: { test?: boolean; live?: boolean };
  provider_authorization_period_days?: number;
}

/**
 * An account's settings of provider authorizations; an account without a row has the defaults. Reads
 * for enforcement are kept a few seconds per process (`cacheMs`), so a BV or PA POST rarely pays a
 * query for them; a change made in this process applies at once, in another within `cacheMs`.
 */
export class AccountSettingsRepository {
  private static readonly shared = new WeakMap<Database, AccountSettingsRepository>();

  /**
   * The one instance of a process's database: the API's settings route and the enforcement on case
   * creation share its cache, so a change made through the API applies at once in this process.
   */
  static of(db: Database): AccountSettingsRepository {
    let repository = AccountSettingsRepository.shared.get(db);
    if (!repository)
      AccountSettingsRepository.shared.set(db, (repository = new AccountSettingsRepository(db)));
    return repository;
  }

  private readonly cache = new Map<string, { settings: ProviderAuthorizationSettings; until: number }>();

  constructor(
    private readonly db: Database,
    private readonly cacheMs = 5_000,
  ) {}

  async get(accountId: string): Promise<ProviderAuthorizationSettings> {
    const [row] = await this.db.query<SettingsRow>(
      `SELECT ${COLUMNS} FROM account_settings WHERE account_id = $1`,
      [accountId],
    );
    const settings = row ? fromRow(row) : DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS;
    this.cache.set(accountId, { settings, until: Date.now() + this.cacheMs });
    return settings;
  }

  /** The settings as of at most `cacheMs` ago. */
  async recent(accountId: string): Promise<ProviderAuthorizationSettings> {
    const cached = this.cache.get(accountId);
    if (cached && cached.until > Date.now()) return cached.settings;
    return this.get(accountId);
  }

  /**
   * Changes the named settings in one statement, each from the row as stored when it runs: two
   * changes made at once, of different settings, both hold (a read then a write would lose one).
   * Answers every setting as stored.
   */
  async update(accountId: string, changes: SettingsChanges): Promise<ProviderAuthorizationSettings> {
    const defaults = DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS;
    const [row] = await this.db.query<SettingsRow>(
      `INSERT INTO account_settings (account_id, require_provider_authorization_test,
         require_provider_authorization_live, provider_authorization_period_days, updated_at)
       VALUES ($1, COALESCE($2::boolean, $5::boolean), COALESCE($3::boolean, $6::boolean),
         COALESCE($4::integer, $7::integer), now())
       ON CONFLICT (account_id) DO UPDATE SET
         require_provider_authorization_test =
           COALESCE($2::boolean, account_settings.require_provider_authorization_test),
         require_provider_authorization_live =
           COALESCE($3::boolean, account_settings.require_provider_authorization_live),
         provider_authorization_period_days =
           COALESCE($4::integer, account_settings.provider_authorization_period_days),
         updated_at = now()
       RETURNING ${COLUMNS}`,
      [
        accountId,
        changes.require_provider_authorization?.test ?? null,
        changes.require_provider_authorization?.live ?? null,
        changes.provider_authorization_period_days ?? null,
        defaults.require_provider_authorization.test,
        defaults.require_provider_authorization.live,
        defaults.provider_authorization_period_days,
      ],
    );
    const settings = fromRow(row!);
    this.cache.set(accountId, { settings, until: Date.now() + this.cacheMs });
    return settings;
  }
}

function fromRow(row: SettingsRow): ProviderAuthorizationSettings {
  return {
    require_provider_authorization: {
      test: row.require_provider_authorization_test,
      live: row.require_provider_authorization_live,
    },
    provider_authorization_period_days: row.provider_authorization_period_days,
  };
}
