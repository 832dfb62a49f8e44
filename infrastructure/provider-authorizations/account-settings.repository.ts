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
 * An account's settings of provider authorizations; an account without a row has the defaults. Nothing
 * is kept between reads: enforcement reads its setting with the authorization it checks
 * (`ProviderAuthorizationsRepository.enforcement`), so a change applies at once in every process.
 */
export class AccountSettingsRepository {
  constructor(private readonly db: Database) {}

  async get(accountId: string): Promise<ProviderAuthorizationSettings> {
    const [row] = await this.db.query<SettingsRow>(
      `SELECT ${COLUMNS} FROM account_settings WHERE account_id = $1`,
      [accountId],
    );
    return row ? fromRow(row) : DEFAULT_PROVIDER_AUTHORIZATION_SETTINGS;
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
    return fromRow(row!);
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
