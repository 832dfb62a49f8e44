import { DAY_MS } from '../../domain/durations';
import { newId } from '../../domain/ids';
import type { ProviderAuthorization } from '../../domain/providers/provider-authorization';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import {
  SigningLinksRepository,
  tokenDigest,
} from '../../infrastructure/provider-authorizations/signing-links.repository';
import type { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import {
  SPENT_SIGNING_LINK_GRACE_DAYS,
  SpentSigningLinksSweeper,
} from '../../src/worker/sweepers/spent-signing-links';
import { databaseEngines } from '../support/database-engines';

const engines = databaseEngines('spent signing links');

const GRACE_DAYS = SPENT_SIGNING_LINK_GRACE_DAYS;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

describe.each(engines)('links mailed to prescribers, on %s', (_engine, open) => {
  let db: Database;
  let links: SigningLinksRepository;
  let authorizationId: string;

  beforeAll(async () => {
    db = await open();
    await migrate(db);
    links = new SigningLinksRepository(db);
    const { id: accountId } = await new AccountsRepository(db).createAccount('Signing clinic');
    authorizationId = newId('providerAuthorization');
    const now = new Date().toISOString();
    const authorization: ProviderAuthorization = {
      id: authorizationId,
      object: 'provider_authorization',
      npi: '1234567893',
      first_name: 'Amadou',
      last_name: 'Reviewsworth',
      email: 'prescriber@example.test',
      phone: null,
      practice: null,
      status: 'pending',
      link_expires_at: daysFromNow(14).toISOString(),
      signed_at: null,
      expires_at: null,
      revoked_at: null,
      created_at: now,
      updated_at: now,
    };
    await new ProviderAuthorizationsRepository(db).insertPending(
      { accountId, livemode: false },
      authorization,
      { periodDays: 365, renewableFrom: new Date() },
      null,
    );
  });
  afterAll(() => db.close());

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
