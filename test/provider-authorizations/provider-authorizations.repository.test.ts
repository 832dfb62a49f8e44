import { DAY_MS } from '../../domain/durations';
import { newId } from '../../domain/ids';
import type { ProviderAuthorization } from '../../domain/providers/provider-authorization';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AccountSettingsRepository } from '../../infrastructure/provider-authorizations/account-settings.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import {
  SigningLinksRepository,
  tokenDigest,
} from '../../infrastructure/provider-authorizations/signing-links.repository';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import { RequestOriginsSweeper } from '../../src/worker/sweepers/request-origins';
import {
  SPENT_SIGNING_LINK_GRACE_DAYS,
  SpentSigningLinksSweeper,
} from '../../src/worker/sweepers/spent-signing-links';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('provider authorizations, their links and origins, and account settings');

const RETENTION_DAYS = 90;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const NETWORK = 'c0ffee00c0ffee00c0ffee00c0ffee00';

const GRACE_DAYS = SPENT_SIGNING_LINK_GRACE_DAYS;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

const ACCOUNTS = 10;

/** A pending authorization of the prescriber, as the API starts one at `createdAt`. */
const pendingAuthorization = (
  npi: string,
  createdAt: Date,
  linkExpiresAt: Date | null,
): ProviderAuthorization => ({
  id: newId('providerAuthorization'),
  object: 'provider_authorization',
  npi,
  first_name: 'Amadou',
  last_name: 'Reviewsworth',
  email: 'prescriber@example.test',
  phone: null,
  practice: null,
  status: 'pending',
  link_expires_at: linkExpiresAt?.toISOString() ?? null,
  signed_at: null,
  expires_at: null,
  revoked_at: null,
  created_at: createdAt.toISOString(),
  updated_at: createdAt.toISOString(),
});

/**
 * What the provider authorization repositories and sweepers store, on one database per engine, as a
 * fresh database costs seconds to start. Each part keeps to accounts of its own, and only the links'
 * part issues links or signs, so what a sweeper counts is its own part's.
 */
describe.each(engines)('provider authorization storage on %s', (_engine, open) => {
  let db: Database;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
  });
  afterAll(() => db.close());

  describe('provider authorizations', () => {
    it('stores a new authorization as pending and unchanged since its creation, whatever the object says', async () => {
      const { id: accountId } = await new AccountsRepository(db).createAccount('Pending clinic');
      const scope = { accountId, livemode: false };
      const created = new Date('2026-11-29T10:00:00.000Z');
      const later = new Date('2026-11-29T11:00:00.000Z').toISOString();
      const claimingMore: ProviderAuthorization = {
        id: newId('providerAuthorization', created.getTime()),
        object: 'provider_authorization',
        npi: '1234567893',
        first_name: 'Elodie',
        last_name: 'Pendingsworth',
        email: 'e@clinic.example',
        phone: null,
        practice: null,
        status: 'signed',
        link_expires_at: new Date('2026-12-13T10:00:00.000Z').toISOString(),
        signed_at: later,
        expires_at: new Date('2027-11-29T11:00:00.000Z').toISOString(),
        revoked_at: later,
        created_at: created.toISOString(),
        updated_at: later,
      };
      const authorizations = new ProviderAuthorizationsRepository(db);

      const inserted = await authorizations.insertPending(
        scope,
        claimingMore,
        { periodDays: 365, renewableFrom: created },
        null,
      );

      expect(inserted).toEqual({ created: true });
      expect(await authorizations.find(scope, claimingMore.id)).toEqual({
        ...claimingMore,
        status: 'pending',
        signed_at: null,
        expires_at: null,
        revoked_at: null,
        updated_at: claimingMore.created_at,
      });
    });
  });

  describe('where provider authorizations were asked and signed from', () => {
    let authorizations: ProviderAuthorizationsRepository;
    let accountId: string;
    let npi = 1_000_000_000;

    beforeAll(async () => {
      authorizations = new ProviderAuthorizationsRepository(db);
      ({ id: accountId } = await new AccountsRepository(db).createAccount('Origin clinic'));
    });

    /** An authorization started `startedDaysAgo` from NETWORK, then moved to `status` `endedDaysAgo`, signed from an address. */
    async function started(
      startedDaysAgo: number,
      status: ProviderAuthorization['status'] = 'pending',
      endedDaysAgo = startedDaysAgo,
    ): Promise<string> {
      const authorization = pendingAuthorization(String((npi += 1)), daysAgo(startedDaysAgo), null);
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
      expect(await authorizations.startedFromNetwork(accountId, NETWORK, daysAgo(RETENTION_DAYS))).toBe(
        false,
      );

      await started(RETENTION_DAYS - 1);
      expect(await authorizations.startedFromNetwork(accountId, NETWORK, daysAgo(RETENTION_DAYS))).toBe(true);
    });

    it('clears, in batches, the network of those started before the retention and the signing address and user agent of those that ended before it', async () => {
      const signedLongAgo = await started(RETENTION_DAYS + 5, 'signed');
      const revokedLongAgo = await started(RETENTION_DAYS + 10, 'revoked', RETENTION_DAYS + 1);
      const revokedRecently = await started(RETENTION_DAYS + 10, 'expired', RETENTION_DAYS - 1);
      const startedRecently = await started(RETENTION_DAYS - 1, 'revoked', 1);

      expect(
        await new RequestOriginsSweeper(authorizations, RETENTION_DAYS, 2).sweep(),
      ).toBeGreaterThanOrEqual(3);

      const cleared = { network: false, address: false, user_agent: false };
      expect(await origins(signedLongAgo)).toEqual({ network: false, address: true, user_agent: true });
      expect(await origins(revokedLongAgo)).toEqual(cleared);
      expect(await origins(revokedRecently)).toEqual({ network: false, address: true, user_agent: true });
      expect(await origins(startedRecently)).toEqual({ network: true, address: true, user_agent: true });
      expect(await new RequestOriginsSweeper(authorizations, RETENTION_DAYS).sweep()).toBe(0);
    });
  });

  describe('links mailed to prescribers', () => {
    let links: SigningLinksRepository;
    let authorizationId: string;

    beforeAll(async () => {
      links = new SigningLinksRepository(db);
      const { id: accountId } = await new AccountsRepository(db).createAccount('Signing clinic');
      const authorization = pendingAuthorization('1234567893', new Date(), daysFromNow(14));
      authorizationId = authorization.id;
      await new ProviderAuthorizationsRepository(db).insertPending(
        { accountId, livemode: false },
        authorization,
        { periodDays: 365, renewableFrom: new Date() },
        null,
      );
    });

    const issued = (expiresAt: Date, purpose: 'sign' | 'revoke' = 'sign') =>
      links.issue(authorizationId, purpose, expiresAt.toISOString());
    const kept = async (tokens: string[]) => {
      const rows = await db.query<{ token_sha256: string }>(
        'SELECT token_sha256 FROM provider_authorization_links WHERE token_sha256 = ANY($1)',
        [tokens.map(tokenDigest)],
      );
      return tokens.filter((token) => rows.some((row) => row.token_sha256 === tokenDigest(token)));
    };

    it('deletes the links used or lapsed more than the grace ago, in batches, and keeps the others', async () => {
      const lapsedLongAgo = await issued(daysFromNow(-GRACE_DAYS - 1));
      const revokeLinkLapsedLongAgo = await issued(daysFromNow(-GRACE_DAYS - 2), 'revoke');
      const usedLongAgo = await issued(daysFromNow(-GRACE_DAYS + 10));
      await links.use(usedLongAgo, daysFromNow(-GRACE_DAYS - 1));
      const lapsedRecently = await issued(daysFromNow(-GRACE_DAYS + 1));
      const usedRecently = await issued(daysFromNow(10));
      await links.use(usedRecently, daysFromNow(-1));
      const current = await issued(daysFromNow(14));
      const currentRevokeLink = await issued(daysFromNow(365), 'revoke');

      expect(await new SpentSigningLinksSweeper(links, 2).sweep()).toBe(3);

      expect(await kept([lapsedLongAgo, revokeLinkLapsedLongAgo, usedLongAgo])).toEqual([]);
      expect(await kept([lapsedRecently, usedRecently, current, currentRevokeLink])).toEqual([
        lapsedRecently,
        usedRecently,
        current,
        currentRevokeLink,
      ]);
      expect(await links.open(current, 'sign')).toBe(authorizationId);
      expect(await links.open(currentRevokeLink, 'revoke')).toBe(authorizationId);
    });

    it('deletes nothing when no link is past the grace', async () => {
      await issued(daysFromNow(14));
      expect(await new SpentSigningLinksSweeper(links).sweep()).toBe(0);
    });
  });

  describe('account settings', () => {
    let accounts: AccountsRepository;

    beforeAll(async () => {
      accounts = new AccountsRepository(db);
    });

    it('keeps every setting of changes made at the same time, each naming another', async () => {
      const settings = new AccountSettingsRepository(db);
      const accountIds = await Promise.all(
        Array.from({ length: ACCOUNTS }, async () => (await accounts.createAccount('Settings clinic')).id),
      );

      await Promise.all(
        accountIds.flatMap((accountId) => [
          settings.update(accountId, { require_provider_authorization: { test: true } }),
          settings.update(accountId, { require_provider_authorization: { live: false } }),
          settings.update(accountId, { provider_authorization_period_days: 90 }),
        ]),
      );

      const stored = new AccountSettingsRepository(db);
      for (const accountId of accountIds)
        expect(await stored.get(accountId)).toEqual({
          require_provider_authorization: { test: true, live: false },
          provider_authorization_period_days: 90,
        });
    });

    it('answers a change with every setting as stored, the ones it left alone included', async () => {
      const settings = new AccountSettingsRepository(db);
      const { id: accountId } = await accounts.createAccount('Settings clinic');
      await new AccountSettingsRepository(db).update(accountId, { provider_authorization_period_days: 30 });

      expect(await settings.update(accountId, { require_provider_authorization: { test: true } })).toEqual({
        require_provider_authorization: { test: true, live: true },
        provider_authorization_period_days: 30,
      });
    });
  });
});
