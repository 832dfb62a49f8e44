import { newId } from '../../domain/ids';
import type { Database } from '../../infrastructure/storage/database';

const DAY_MS = 86_400_000;

/**
 * A prescriber's signed, current authorization of the account in one mode, written as the workflow
 * writes it once signed: for suites about something else whose live-mode BVs and PAs need one
 * (enforcement is on in live mode by default). test/provider-authorizations proves the real path.
 */
export async function authorizedPrescriber(
  db: Database,
  accountId: string,
  livemode: boolean,
  provider: { npi: string; first_name: string; last_name: string },
): Promise<string> {
  const id = newId('providerAuthorization');
  const now = Date.now();
  await db.query(
    `INSERT INTO provider_authorizations
       (id, account_id, livemode, npi, first_name, last_name, email, period_days, status, signed_at,
        expires_at, created_at, updated_at, sequence)
     VALUES ($1, $2, $3, $4, $5, $6, 'prescriber@clinic.example', 365, 'signed', $7, $8, $7, $7, 1)`,
    [
      id,
      accountId,
      livemode,
      provider.npi,
      provider.first_name,
      provider.last_name,
      new Date(now).toISOString(),
      new Date(now + 365 * DAY_MS).toISOString(),
    ],
  );
  return id;
}
