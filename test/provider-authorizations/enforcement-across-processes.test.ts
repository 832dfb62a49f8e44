import { benefitVerificationRequest } from '../support/case-requests';
import { AMADOU, LINK_BASE_URL, mailedLink, submitLinkPage } from '../support/provider-authorizations';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestWorker } from '../support/workers';
import { Database, openDatabase } from '../../infrastructure/storage/database';

/**
 * Another API process's connection to the same database: a pool of its own on PostgreSQL; on PGlite,
 * which one process holds, a handle of its own on the same instance, so nothing one process keeps
 * in memory about the database is the other's.
 */
async function anotherProcessHandle(testApp: TestApp): Promise<Database> {
  if (testApp.config.databaseUrl) return openDatabase({ databaseUrl: testApp.config.databaseUrl });
  const { db } = testApp;
  return {
    engine: db.engine,
    query: (sql, params) => db.query(sql, params),
    transaction: (work) => db.transaction(work),
    close: async () => undefined,
  };
}

describe('provider authorization enforcement across API processes', () => {
  let first: TestApp;
  let second: TestApp;
  let worker: TestWorker;

  beforeAll(async () => {
    first = await startTestApp({ PUBLIC_API_URL: LINK_BASE_URL });
    second = await startTestApp(
      { PUBLIC_API_URL: LINK_BASE_URL, TEMPORAL_TASK_QUEUE: first.config.temporal.taskQueue },
      { config: first.config, db: await anotherProcessHandle(first) },
    );
    worker = await first.startWorker();
  });
  afterAll(async () => {
    await worker.stop();
    await second.close();
    await first.close();
  });

  const verifyThroughSecond = async (account: TestAccount) =>
    (
      await second
        .http()
        .post('/benefit-verification')
        .set(bearer(account.keys.provider))
        .send(benefitVerificationRequest())
    ).status;
  const requireThroughFirst = (account: TestAccount, test: boolean) =>
    first
      .http()
      .patch('/account-settings')
      .set(bearer(account.keys.admin))
      .send({ require_provider_authorization: { test } })
      .expect(200);

  it('refuses on the other process’s very next request once enforcement is turned on, and admits once it is off', async () => {
    const account = await first.createAccount();
    expect(await verifyThroughSecond(account)).toBe(201);

    await requireThroughFirst(account, true);
    expect(await verifyThroughSecond(account)).toBe(409);

    await requireThroughFirst(account, false);
    expect(await verifyThroughSecond(account)).toBe(201);
  });

  // The status was never kept in a process, before or since the setting moved into enforcement's one
  // statement, so this passes either way: it guards against a cache of authorizations added later.
  it('refuses on the other process’s very next request once the prescriber’s authorization is revoked, as no process keeps an authorization', async () => {
    const account = await first.createAccount();
    await requireThroughFirst(account, true);
    const created = await first
      .http()
      .post('/provider-authorizations')
      .set(bearer(account.keys.provider))
      .send({ ...AMADOU, email: 'amadou@clinic.example' })
      .expect(201);
    const id = created.body.data.id as string;
    const link = await mailedLink(first, account.accountId, id, 'provider_authorization.signing_link');
    expect(
      (await submitLinkPage(first, link, { typed_name: 'Amadou Reviewsworth', attest: 'yes' })).status,
    ).toBe(200);
    expect(await verifyThroughSecond(account)).toBe(201);

    await first
      .http()
      .post(`/provider-authorizations/${id}/revoke`)
      .set(bearer(account.keys.provider))
      .expect(200);
    expect(await verifyThroughSecond(account)).toBe(409);
  });
});
