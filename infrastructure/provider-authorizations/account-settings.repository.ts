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
      `SELECT require_provider_authorization_test, require_provider_authorization_live,
              provider_authorization_period_days
       FROM account_settings WHERE account_id = $1`,
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

  async update(accountId: string, changes: SettingsChanges): Promise<ProviderAuthorizationSettings> {
    const current = await this.get(accountId);
    const next: ProviderAuthorizationSettings = {
      require_provider_authorization: {
        ...current.require_provider_authorization,
        ...definedOnly(changes.require_provider_authorization ?? {}),
      },
      provider_authorization_period_days:
        changes.provider_authorization_period_days ?? current.provider_authorization_period_days,
    };
    await this.db.query(
      `INSERT INTO account_settings (account_id, require_provider_authorization_test,
         require_provider_authorization_live, provider_authorization_period_days, updated_at)
       VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (account_id) DO UPDATE SET
         require_provider_authorization_test = EXCLUDED.require_provider_authorization_test,
         require_provider_authorization_live = EXCLUDED.require_provider_authorization_live,
         provider_authorization_period_days = EXCLUDED.provider_authorization_period_days,
         updated_at = now()`,
      [
        accountId,
        next.require_provider_authorization.test,
        next.require_provider_authorization.live,
        next.provider_authorization_period_days,
      ],
    );
    this.cache.set(accountId, { settings: next, until: Date.now() + this.cacheMs });
    return next;
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

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
