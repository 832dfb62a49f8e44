import { DAY_MS } from '../../domain/durations';
import { newId } from '../../domain/ids';
import type { ProviderAuthorization } from '../../domain/providers/provider-authorization';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { RequestOriginsSweeper } from '../../src/worker/sweepers/request-origins';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('request origins');

const RETENTION_DAYS = 90;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const NETWORK = 'c0ffee00c0ffee00c0ffee00c0ffee00';

describe.each(engines)('where provider authorizations were asked and signed from, on %s', (_engine, open) => {
  let db: Database;
  let authorizations: ProviderAuthorizationsRepository;
  let accountId: string;
  let npi = 1_000_000_000;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    authorizations = new ProviderAuthorizationsRepository(db);
    ({ id: accountId } = await new AccountsRepository(db).createAccount('Origin clinic'));
  });
  afterAll(() => db.close());

  /** An authorization started `startedDaysAgo` from NETWORK, then moved to `status` `endedDaysAgo`, signed from an address. */
  async function started(
    startedDaysAgo: number,
    status: ProviderAuthorization['status'] = 'pending',
    endedDaysAgo = startedDaysAgo,
  ): Promise<string> {
    const createdAt = daysAgo(startedDaysAgo).toISOString();
    const authorization: ProviderAuthorization = {
      id: newId('providerAuthorization'),
      object: 'provider_authorization',
      npi: String((npi += 1)),
      first_name: 'Amadou',
      last_name: 'Reviewsworth',
      email: 'prescriber@example.test',
      phone: null,
      practice: null,
      status: 'pending',
      link_expires_at: null,
      signed_at: null,
      expires_at: null,
      revoked_at: null,
      created_at: createdAt,
      updated_at: createdAt,
    };
    await authorizations.insertPending(
      { accountId, livemode: false },
      authorization,
      { periodDays: 365, renewableFrom: new Date() },
      NETWORK,
    );
    await db.query(
      `UPDATE provider_authorizations SET status = $2, updated_at = $3,
         signature_client_address = '198.51.100.20', signature_user_agent = 'prescriber-browser/1.0'
       WHERE id = $1`,
      [authorization.id, status, daysAgo(endedDaysAgo).toISOString()],
    );
    return authorization.id;
  }
  const origins = async (id: string) =>
    (
      await db.query<Record<string, unknown>>(
        `SELECT requested_from_network IS NOT NULL AS network, signature_client_address IS NOT NULL AS address,
           signature_user_agent IS NOT NULL AS user_agent
         FROM provider_authorizations WHERE id = $1`,
        [id],
      )
    )[0];

  it('has no column for the address or user agent of the request that asked', async () => {
    const columns = await db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns
       WHERE table_name = 'provider_authorizations' AND column_name LIKE 'requested%'`,
    );
    expect(columns.map((column) => column.column_name)).toEqual(['requested_from_network']);
  });

  it('compares a signature only with authorizations started within the retention', async () => {
    await started(RETENTION_DAYS + 1);
    expect(await authorizations.startedFromNetwork(accountId, NETWORK, daysAgo(RETENTION_DAYS))).toBe(false);

    await started(RETENTION_DAYS - 1);
    expect(await authorizations.startedFromNetwork(accountId, NETWORK, daysAgo(RETENTION_DAYS))).toBe(true);
  });

  it('clears, in batches, the network of those started before the retention and the signing address and user agent of those that ended before it', async () => {
    const signedLongAgo = await started(RETENTION_DAYS + 5, 'signed');
    const revokedLongAgo = await started(RETENTION_DAYS + 10, 'revoked', RETENTION_DAYS + 1);
    const revokedRecently = await started(RETENTION_DAYS + 10, 'expired', RETENTION_DAYS - 1);
    const startedRecently = await started(RETENTION_DAYS - 1, 'revoked', 1);

    expect(await new RequestOriginsSweeper(authorizations, RETENTION_DAYS, 2).sweep()).toBeGreaterThanOrEqual(
      3,
    );

    const cleared = { network: false, address: false, user_agent: false };
    expect(await origins(signedLongAgo)).toEqual({ network: false, address: true, user_agent: true });
    expect(await origins(revokedLongAgo)).toEqual(cleared);
    expect(await origins(revokedRecently)).toEqual({ network: false, address: true, user_agent: true });
    expect(await origins(startedRecently)).toEqual({ network: true, address: true, user_agent: true });
    expect(await new RequestOriginsSweeper(authorizations, RETENTION_DAYS).sweep()).toBe(0);
  });
});
