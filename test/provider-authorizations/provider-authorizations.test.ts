import { randomBytes } from 'node:crypto';

import { WorkflowFailedError } from '@temporalio/client';
import type { ActivityFailure, ApplicationFailure } from '@temporalio/common';

import { DAY_MS } from '../../domain/durations';
import { newId } from '../../domain/ids';
import { MailNotSentError, OutgoingMail } from '../../domain/mail/outgoing-mail';
import { comparableName } from '../../domain/providers/name-match';
import { type ProviderAuthorization, typedNameMatches } from '../../domain/providers/provider-authorization';
import { networkOf } from '../../domain/providers/requester-network';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { accountMailer } from '../../infrastructure/mail/account-mailer';
import { classifiedSmtpFailure } from '../../infrastructure/mail/smtp-sending';
import {
  MAIL_OUTBOX_RETENTION_DAYS,
  MailOutboxRepository,
} from '../../infrastructure/mail/mail-outbox.repository';
import { AccountSettingsRepository } from '../../infrastructure/provider-authorizations/account-settings.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import {
  SigningLinksRepository,
  tokenDigest,
} from '../../infrastructure/provider-authorizations/signing-links.repository';
import { SANDBOX_NPIS } from '../../infrastructure/providers/sandbox-registry';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { migrate } from '../../infrastructure/storage/migrations';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { CONSOLE_CONTENT_SECURITY_POLICY } from '../../src/console/console-edge';
import { validatedConnectorSettings } from '../../src/connectors/connectors.dto';
import { ConnectorsService } from '../../src/connectors/connectors.service';
import { RequestOriginsSweeper } from '../../src/worker/sweepers/request-origins';
import {
  SPENT_SIGNING_LINK_GRACE_DAYS,
  SpentSigningLinksSweeper,
} from '../../src/worker/sweepers/spent-signing-links';
import { JsonObject, waitForStatus } from '../support/case-journeys';
import { benefitVerificationRequest, priorAuthorizationRequest } from '../support/case-requests';
import { consoleBrowserWithRoles, getPage, postForm } from '../support/console-admin';
import { ConsoleBrowser, cookiesFrom, hiddenFieldsOf } from '../support/console-session';
import { databaseEngines } from '../support/database-engines';
import { LoopbackNpiRegistry } from '../support/loopback-npi-registry';
import { LoopbackSmtpServer } from '../support/loopback-smtp';
import { openMigratedMemoryDatabase } from '../support/migrated-database';
import {
  AMADOU,
  authorizedPrescriber,
  LINK_BASE_URL,
  mailedLink as mailedLinkOf,
  pathOf,
  startAuthorizationRevokedAtOnce,
  startAuthorizationWithClock,
  submitLinkPage,
} from '../support/provider-authorizations';
import { bearer, eventually, startTestApp, TestAccount, TestApp, testConfig } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

/*
 * Provider authorizations on the real worker, the registry lookup and its check of a case's prescriber,
 * the mailer and its outbox, the storage beneath them and the rules they keep (a typed name, a network,
 * a failed send), in one file: each file costs a process of its own, its modules' loading and a
 * database and app start, several seconds apiece on CI's busy cores.
 */

const SECRET = 'whsec_provider_authorizations_01';
/** The sandbox registry's fictional prescribers (infrastructure/providers/sandbox-registry.ts). */
const ELODIE = { npi: '1000000012', first_name: 'Élodie', last_name: "D'Arcy-Nguyen" };
const PUBLIC_API_URL = LINK_BASE_URL;
const OUTBOX = '/console/providers/outbox';
const SMTP_CREDENTIALS = { username: 'clinic-mailer', password: 'mailer-password-7c1e' };
/** Shorter than the default, so a mark that follows it follows the setting. */
const REQUEST_ORIGIN_RETENTION_DAYS = 30;

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

describe('provider authorizations', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let outbox: MailOutboxRepository;
  /** The live NPPES registry, on loopback; test mode asks the sandbox's. */
  const registry = new LoopbackNpiRegistry();
  const receivers: TestReceiver[] = [];

  beforeAll(async () => {
    // One proxy hop: a test names the client address of a request in its X-Forwarded-For.
    testApp = await startTestApp({
      NPI_REGISTRY_URL: await registry.start(),
      PUBLIC_API_URL,
      WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '100',
      TRUSTED_PROXY_HOPS: '1',
      PROVIDER_REQUEST_ORIGIN_RETENTION_DAYS: String(REQUEST_ORIGIN_RETENTION_DAYS),
      // The few PAs here are read by one evaluation thread as soon as by two, and a thread spends about
      // a second of CPU loading the clinical models before its first case.
      CLINICAL_EVALUATION_THREADS: '1',
    });
    worker = await testApp.startWorker();
    outbox = new MailOutboxRepository(testApp.db, new SecretBox(testApp.config.encryption!));
  });
  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await worker.stop();
    await testApp.close();
    await registry.stop();
  });

  const authorize = (account: TestAccount, body: object = { ...AMADOU, email: 'amadou@clinic.example' }) =>
    testApp.http().post('/provider-authorizations').set(bearer(account.keys.provider)).send(body);
  const read = async (account: TestAccount, id: string) =>
    (await testApp.http().get(`/provider-authorizations/${id}`).set(bearer(account.keys.provider))).body
      .data as JsonObject;
  const listIds = async (account: TestAccount, query: Record<string, string> = {}) =>
    (
      (await testApp.http().get('/provider-authorizations').query(query).set(bearer(account.keys.provider)))
        .body.data.data as JsonObject[]
    ).map((authorization) => authorization.id);
  const requireAuthorization = (account: TestAccount, test: boolean) =>
    testApp
      .http()
      .patch('/account-settings')
      .set(bearer(account.keys.admin))
      .send({ require_provider_authorization: { test } });

  const mailedLink = (account: TestAccount, id: string, purpose: string) =>
    mailedLinkOf(testApp, account.accountId, id, purpose);
  const submitPage = (link: string, fields: Record<string, string> = {}) =>
    submitLinkPage(testApp, link, fields);
  const sign = (link: string, typedName = 'Amadou Reviewsworth') =>
    submitPage(link, { typed_name: typedName, attest: 'yes' });
  const from = (address: string) => ({ 'X-Forwarded-For': address });

  async function signedAuthorization(account: TestAccount) {
    const created = await authorize(account);
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    const signed = await sign(await mailedLink(account, id, 'provider_authorization.signing_link'));
    expect(signed.status).toBe(200);
    return id;
  }

  async function subscribe(account: TestAccount): Promise<TestReceiver> {
    const receiver = await new TestReceiver(SECRET).start();
    receivers.push(receiver);
    const created = await testApp
      .http()
      .post('/webhooks')
      .set(bearer(account.keys.provider))
      .send({
        name: 'prescribers',
        url: receiver.url,
        secret: SECRET,
        events: ['provider_authorization.updated'],
      });
    receiver.endpointIds.add(created.body.data.id);
    await testApp
      .http()
      .patch(`/webhooks/${created.body.data.id}`)
      .set(bearer(account.keys.provider))
      .send({ active: true });
    await waitForStatus(testApp, account.keys.provider, '/webhooks', created.body.data.id, 'active');
    return receiver;
  }

  /**
   * From here to the live mode's tests, each test works in an account of its own and shares nothing
   * else, so they run side by side, in one group: jest runs a describe block's concurrent tests
   * together only when none of them sits in a nested block. The three on a clock of seconds wait
   * mostly idle for their workflows' timers; they start first, and the others run while they wait.
   */
  const startWithClock = (account: TestAccount, clock: Parameters<typeof startAuthorizationWithClock>[2]) =>
    startAuthorizationWithClock(testApp, account.accountId, clock);

  const statusesNotified = (receiver: TestReceiver, id: string) =>
    receiver.notifications
      .filter((notification) => (notification.data as JsonObject).id === id)
      .map((notification) => (notification.data as JsonObject).status);

  const untilExpired = (account: TestAccount, id: string) =>
    waitForStatus(testApp, account.keys.provider, '/provider-authorizations', id, 'expired', 10_000);

  it.concurrent('keeps a revocation that reaches the workflow with its start', async () => {
    const account = await testApp.createAccount();
    const answer = await startAuthorizationRevokedAtOnce(testApp, account.accountId, {
      signingLinkTtlMs: 60_000,
      signingReminderAfterMs: 60_000,
      renewalReminderBeforeMs: 0,
      periodMs: 60_000,
    });

    expect(answer).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) });
    await waitForStatus(testApp, account.keys.provider, '/provider-authorizations', answer.id, 'revoked');
    expect((await authorize(account)).status).toBe(201);
  });

  it.concurrent('reminds an unsigned authorization, then lets its link lapse', async () => {
    const account = await testApp.createAccount();
    const receiver = await subscribe(account);
    const id = await startWithClock(account, {
      signingLinkTtlMs: 1_500,
      signingReminderAfterMs: 500,
      renewalReminderBeforeMs: 0,
      periodMs: 60_000,
    });
    const link = await mailedLink(account, id, 'provider_authorization.signing_link');
    const reminderLink = await mailedLink(account, id, 'provider_authorization.signing_reminder');
    expect(reminderLink).not.toBe(link);

    await untilExpired(account, id);
    expect(await read(account, id)).toMatchObject({ link_expires_at: null, signed_at: null });
    for (const lapsed of [link, reminderLink])
      expect((await testApp.http().get(pathOf(lapsed))).status).toBe(410);
    await eventually(async () => statusesNotified(receiver, id).includes('expired'));
    expect(statusesNotified(receiver, id).sort()).toEqual(['expired', 'pending']);
  });

  it.concurrent(
    'reminds a signed authorization before it lapses, then lapses, and BVs are refused again',
    async () => {
      const account = await testApp.createAccount();
      const receiver = await subscribe(account);
      await requireAuthorization(account, true);
      const id = await startWithClock(account, {
        signingLinkTtlMs: 60_000,
        signingReminderAfterMs: 30_000,
        renewalReminderBeforeMs: 3_000,
        periodMs: 6_000,
      });
      expect((await sign(await mailedLink(account, id, 'provider_authorization.signing_link'))).status).toBe(
        200,
      );
      const verification = () =>
        testApp
          .http()
          .post('/benefit-verification')
          .set(bearer(account.keys.provider))
          .send(benefitVerificationRequest());
      expect((await verification()).status).toBe(201);

      const revokeLink = await mailedLink(account, id, 'provider_authorization.confirmation');
      await mailedLink(account, id, 'provider_authorization.renewal_reminder');
      // Due for renewal: a new authorization of the same prescriber may be started before this one lapses.
      expect((await authorize(account)).status).toBe(201);
      await untilExpired(account, id);
      expect((await testApp.http().get(pathOf(revokeLink))).status).toBe(410);
      expect((await verification()).status).toBe(409);
      await eventually(async () => statusesNotified(receiver, id).includes('expired'));
      expect(statusesNotified(receiver, id).sort()).toEqual(['expired', 'pending', 'signed']);

      const audit = await testApp.http().get('/audit-events').set(bearer(account.keys.admin));
      const actions = (audit.body.data.data as JsonObject[])
        .filter((event) => (event.target as JsonObject | null)?.id === id)
        .map((event) => event.action);
      expect(actions.sort()).toEqual([
        'provider_authorization.created',
        'provider_authorization.expired',
        'provider_authorization.reminded',
        'provider_authorization.signed',
      ]);
    },
  );
  it.concurrent(
    'sends no renewal reminder when the period is no longer than its lead, and lapses at the period',
    async () => {
      const account = await testApp.createAccount();
      const id = await startWithClock(account, {
        signingLinkTtlMs: 60_000,
        signingReminderAfterMs: 30_000,
        renewalReminderBeforeMs: 5_000,
        periodMs: 1_000,
      });
      expect((await sign(await mailedLink(account, id, 'provider_authorization.signing_link'))).status).toBe(
        200,
      );
      await untilExpired(account, id);
      const { messages } = await outbox.list(account.accountId, { livemode: false, limit: 50 });
      expect(
        messages
          .filter((message) => message.objectId === id)
          .map((message) => message.purpose)
          .sort(),
      ).toEqual(['provider_authorization.confirmation', 'provider_authorization.signing_link']);
    },
  );

  it.concurrent(
    'is not signed from a page that showed another text than the authorization’s, whose text is shown again',
    async () => {
      const account = await testApp.createAccount();
      const created = await authorize(account);
      const id = created.body.data.id as string;
      const link = await mailedLink(account, id, 'provider_authorization.signing_link');

      const refused = await submitPage(link, {
        typed_name: 'Amadou Reviewsworth',
        attest: 'yes',
        text_sha256: '0'.repeat(64),
      });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('text changed since this page was opened');
      expect(refused.text).toContain('revoke it at any time');
      expect((await read(account, id)).status).toBe('pending');
    },
  );

  it.concurrent(
    'is started, mailed, signed through the signing page without JavaScript, and lets BVs and PAs through',
    async () => {
      const account = await testApp.createAccount('Riverside Clinic');
      const receiver = await subscribe(account);
      const created = await authorize(account, {
        ...AMADOU,
        email: 'amadou@clinic.example',
        practice: 'Riverside',
      });

      expect(created.status).toBe(201);
      const id = created.body.data.id as string;
      expect(id).toMatch(/^pvauth_[0-9a-z]{26}$/);
      expect(created.body.data).toEqual({
        id,
        object: 'provider_authorization',
        ...AMADOU,
        email: 'amadou@clinic.example',
        phone: null,
        practice: 'Riverside',
        status: 'pending',
        link_expires_at: expect.any(String),
        signed_at: null,
        expires_at: null,
        revoked_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });

      const link = await mailedLink(account, id, 'provider_authorization.signing_link');
      expect(link).toMatch(
        new RegExp(`^${PUBLIC_API_URL}/console/provider-authorization/sign/[A-Za-z0-9_-]{43}$`),
      );
      const page = await testApp.http().get(pathOf(link));
      expect(page.status).toBe(200);
      expect(page.text).toContain('Riverside Clinic');
      expect(page.text).toContain('benefit verifications and prior authorizations');
      expect(page.text).toContain('365 days');
      expect(page.text).toContain('revoke it at any time');
      expect(page.text).not.toContain('<script>');

      const signed = await sign(link);
      expect(signed.status).toBe(200);
      expect(signed.text).toContain('Authorization signed');
      const shown = await read(account, id);
      expect(shown).toMatchObject({ status: 'signed', signed_at: expect.any(String), link_expires_at: null });
      expect(Date.parse(shown.expires_at as string) - Date.parse(shown.signed_at as string)).toBe(
        365 * 86_400_000,
      );
      const again = await authorize(account);
      expect(again.status).toBe(409);
      expect(again.body.error.message).toContain(`signed authorization (${id})`);

      const [signature] = await testApp.db.query<Record<string, string>>(
        `SELECT signature_typed_name, signature_client_address, signature_user_agent, signature_text_sha256
       FROM provider_authorizations WHERE id = $1`,
        [id],
      );
      expect(signature).toEqual({
        signature_typed_name: 'Amadou Reviewsworth',
        signature_client_address: expect.stringMatching(/127\.0\.0\.1|::1/),
        signature_user_agent: expect.any(String),
        signature_text_sha256: hiddenFieldsOf(page.text).text_sha256,
      });
      expect(signature.signature_text_sha256).toMatch(/^[0-9a-f]{64}$/);

      expect((await requireAuthorization(account, true)).status).toBe(200);
      const verification = await testApp
        .http()
        .post('/benefit-verification')
        .set(bearer(account.keys.provider))
        .send(benefitVerificationRequest());
      const priorAuthorization = await testApp
        .http()
        .post('/prior-authorization')
        .set(bearer(account.keys.provider))
        .send(priorAuthorizationRequest());
      expect([verification.status, priorAuthorization.status]).toEqual([201, 201]);

      const statuses = await eventually(async () => {
        const seen = receiver.notifications
          .filter((notification) => (notification.data as JsonObject).id === id)
          .map((notification) => `${notification.type}:${(notification.data as JsonObject).status}`);
        return seen.length >= 2 ? seen : undefined;
      });
      expect(statuses.sort()).toEqual([
        'provider_authorization.updated:pending',
        'provider_authorization.updated:signed',
      ]);
      const confirmation = await mailedLink(account, id, 'provider_authorization.confirmation');
      expect(confirmation).toMatch(/\/console\/provider-authorization\/revoke\//);
    },
  );

  /* A signature from where the account asks from. */
  const CLINIC_OFFICE = '198.51.100.20';
  const CLINIC_SERVER = '192.0.2.10';
  const PRESCRIBER_HOME = '203.0.113.9';

  /** Signs the authorization's mailed link from `signedFrom`: its mark, and what the trail and the console say. */
  async function signFrom(account: TestAccount, id: string, signedFrom: string) {
    const link = await mailedLink(account, id, 'provider_authorization.signing_link');
    const signed = await submitLinkPage(
      testApp,
      link,
      { typed_name: 'Amadou Reviewsworth', attest: 'yes' },
      from(signedFrom),
    );
    expect(signed.status).toBe(200);
    const [row] = await testApp.db.query<Record<string, unknown>>(
      `SELECT status, requested_from_network, signature_client_address, signed_from_requester_network
       FROM provider_authorizations WHERE id = $1`,
      [id],
    );
    const audit = await testApp
      .http()
      .get('/audit-events')
      .query({ target_id: id, action: 'provider_authorization.signed' })
      .set(bearer(account.keys.admin));
    return {
      row,
      audited: (audit.body.data.data as JsonObject[]).map((event) => event.details),
      warned: await consoleWarns(account),
    };
  }
  const consoleWarns = async (account: TestAccount) => {
    const person = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);
    const page = await testApp.http().get('/console/providers').set('Cookie', person.cookie);
    return page.text.includes('signed from your network');
  };
  /** Started through the API from `startedFrom`, signed from `signedFrom`. */
  async function signAcross(account: TestAccount, startedFrom: string, signedFrom: string) {
    const created = await authorize(account).set(from(startedFrom)).set('User-Agent', 'clinic-ehr/1.0');
    expect(created.status).toBe(201);
    return {
      id: created.body.data.id as string,
      ...(await signFrom(account, created.body.data.id, signedFrom)),
    };
  }

  it.concurrent(
    'keeps only a keyed hash of the network that asked, and marks a signature from that network in the trail and the console, signed all the same',
    async () => {
      const account = await testApp.createAccount();

      const { row, audited, warned } = await signAcross(account, CLINIC_OFFICE, CLINIC_OFFICE);

      expect(row).toEqual({
        status: 'signed',
        requested_from_network: expect.stringMatching(/^[0-9a-f]{32}$/),
        signature_client_address: CLINIC_OFFICE,
        signed_from_requester_network: true,
      });
      expect(audited).toEqual([{ status: 'signed', signed_from_requester_network: true }]);
      expect(warned).toBe(true);
    },
  );

  it.concurrent(
    'marks a signature from the network of an authorization started on the console’s form',
    async () => {
      const account = await testApp.createAccount();
      const person = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);
      const started = await postForm(testApp, person, '/console/providers', {
        ...AMADOU,
        email: 'amadou@clinic.example',
      }).set(from(CLINIC_OFFICE));
      expect(started.status).toBe(303);
      const [id] = await listIds(account);

      const { row, warned } = await signFrom(account, id as string, CLINIC_OFFICE);

      expect(row!.signed_from_requester_network).toBe(true);
      expect(warned).toBe(true);
    },
  );

  it.concurrent(
    'marks a signature from the network another of the account’s authorizations was asked from',
    async () => {
      const account = await testApp.createAccount();
      expect(
        (await authorize(account, { ...ELODIE, email: 'elodie@clinic.example' }).set(from(CLINIC_OFFICE)))
          .status,
      ).toBe(201);

      const { row, warned } = await signAcross(account, CLINIC_SERVER, CLINIC_OFFICE);

      expect(row!.signed_from_requester_network).toBe(true);
      expect(warned).toBe(true);
    },
  );

  it.concurrent('leaves unmarked a signature from a network only another account asked from', async () => {
    const other = await testApp.createAccount();
    expect((await authorize(other).set(from(PRESCRIBER_HOME))).status).toBe(201);
    const account = await testApp.createAccount();

    const { row, audited, warned } = await signAcross(account, CLINIC_SERVER, PRESCRIBER_HOME);

    expect(row!.signed_from_requester_network).toBe(false);
    expect(audited).toEqual([{ status: 'signed', signed_from_requester_network: false }]);
    expect(warned).toBe(false);
  });

  it.concurrent(
    'marks a signature only from a network asked from within PROVIDER_REQUEST_ORIGIN_RETENTION_DAYS, kept apart for each account',
    async () => {
      /** An account whose one other authorization was asked from CLINIC_OFFICE `startedDaysAgo`. */
      async function askedFromOffice(startedDaysAgo: number) {
        const account = await testApp.createAccount();
        const created = await authorize(account, { ...ELODIE, email: 'elodie@clinic.example' }).set(
          from(CLINIC_OFFICE),
        );
        expect(created.status).toBe(201);
        const [row] = await testApp.db.query<{ requested_from_network: string }>(
          `UPDATE provider_authorizations SET created_at = $2 WHERE id = $1 RETURNING requested_from_network`,
          [created.body.data.id, new Date(Date.now() - startedDaysAgo * DAY_MS).toISOString()],
        );
        return { account, network: row!.requested_from_network };
      }
      const past = await askedFromOffice(REQUEST_ORIGIN_RETENTION_DAYS + 1);
      const within = await askedFromOffice(REQUEST_ORIGIN_RETENTION_DAYS - 1);

      expect(past.network).toMatch(/^[0-9a-f]{32}$/);
      expect(within.network).toMatch(/^[0-9a-f]{32}$/);
      expect(past.network).not.toBe(within.network);
      expect((await signAcross(past.account, CLINIC_SERVER, CLINIC_OFFICE)).row).toMatchObject({
        signed_from_requester_network: false,
      });
      expect((await signAcross(within.account, CLINIC_SERVER, CLINIC_OFFICE)).row).toMatchObject({
        signed_from_requester_network: true,
      });
    },
  );

  it.concurrent('warns on the console of no marked signature once its authorization is revoked', async () => {
    const account = await testApp.createAccount();
    const { id } = await signAcross(account, CLINIC_OFFICE, CLINIC_OFFICE);

    await testApp
      .http()
      .post(`/provider-authorizations/${id}/revoke`)
      .set(bearer(account.keys.provider))
      .expect(200);

    expect(await consoleWarns(account)).toBe(false);
  });

  it.concurrent(
    'refuses a BV or PA naming an unauthorized NPI while enforcement is on, creating nothing, and accepts it when off',
    async () => {
      const account = await testApp.createAccount();
      const cases = async () =>
        (await testApp.http().get('/prior-authorization').set(bearer(account.keys.provider))).body.data.data;
      expect(await cases()).toEqual([]);
      await requireAuthorization(account, true);

      for (const [path, request] of [
        ['/prior-authorization', priorAuthorizationRequest()],
        ['/benefit-verification', benefitVerificationRequest()],
      ] as const) {
        const refused = await testApp.http().post(path).set(bearer(account.keys.provider)).send(request);
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('provider_not_authorized');
        expect(refused.body.error.message).toContain('1234567893');
        expect(refused.body.error.message).toContain('POST /provider-authorizations');
        expect(refused.body.error.details).toEqual([{ field: 'provider.npi', issue: expect.any(String) }]);
      }
      expect(await cases()).toEqual([]);
      const verifications = await testApp
        .http()
        .get('/benefit-verification')
        .set(bearer(account.keys.provider));
      expect(verifications.body.data.data).toEqual([]);

      await requireAuthorization(account, false);
      const accepted = await testApp
        .http()
        .post('/prior-authorization')
        .set(bearer(account.keys.provider))
        .send(priorAuthorizationRequest());
      expect(accepted.status).toBe(201);
    },
  );

  it.concurrent(
    'answers the account settings with enforcement off in test mode and on in live mode by default',
    async () => {
      const account = await testApp.createAccount();
      const settings = await testApp.http().get('/account-settings').set(bearer(account.keys.admin));
      expect(settings.body.data).toEqual({
        object: 'account_settings',
        require_provider_authorization: { test: false, live: true },
        provider_authorization_period_days: 365,
      });
      const provider = await testApp.http().get('/account-settings').set(bearer(account.keys.provider));
      expect(provider.status).toBe(403);
    },
  );

  it.concurrent(
    'lets only a live admin key or a console admin change live enforcement and the period',
    async () => {
      const account = await testApp.createAccount();
      const testAdmin = await testApp
        .http()
        .patch('/account-settings')
        .set(bearer(account.keys.admin))
        .send({ require_provider_authorization: { live: false } });
      expect(testAdmin.status).toBe(403);
      expect(testAdmin.body.error.message).toContain('live admin key');

      const { admin: liveAdmin } = await testApp.createLiveKeys(account.accountId);
      const changed = await testApp
        .http()
        .patch('/account-settings')
        .set(bearer(liveAdmin))
        .send({ require_provider_authorization: { live: false }, provider_authorization_period_days: 180 });
      expect(changed.body.data).toEqual({
        object: 'account_settings',
        require_provider_authorization: { test: false, live: false },
        provider_authorization_period_days: 180,
      });

      const person = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
      const saved = await postForm(testApp, person, '/console/account/provider-authorizations', {
        require_test: 'yes',
        require_live: 'yes',
        period_days: '90',
      });
      expect(saved.status).toBe(303);
      const settings = await testApp.http().get('/account-settings').set(bearer(account.keys.admin));
      expect(settings.body.data).toMatchObject({
        require_provider_authorization: { test: true, live: true },
        provider_authorization_period_days: 90,
      });
      const page = await testApp.http().get('/console/account').set('Cookie', person.cookie);
      expect(page.text).toContain('Require it in live mode');

      const provider = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);
      const refused = await postForm(testApp, provider, '/console/account/provider-authorizations', {
        period_days: '30',
      });
      expect(refused.status).toBe(403);
    },
  );

  it.concurrent('checks the NPI against the registry at creation and never echoes its record', async () => {
    const account = await testApp.createAccount();
    const refusedFields = async (body: object) => {
      const response = await authorize(account, { email: 'someone@clinic.example', ...body });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      expect(JSON.stringify(response.body)).not.toMatch(/MORGAN|ELSEWHERE|VANTERPOOL|RIVERSIDE/i);
      return (response.body.error.details as Array<{ field: string }>).map((detail) => detail.field);
    };

    expect(await refusedFields({ npi: '1999999992', first_name: 'Nobody', last_name: 'Known' })).toEqual([
      'npi',
    ]);
    expect(
      await refusedFields({ npi: '1000000038', first_name: 'Cassius', last_name: 'Vanterpool' }),
    ).toEqual(['npi']);
    expect(await refusedFields({ npi: '1000000020', first_name: 'Sandbox', last_name: 'Riverside' })).toEqual(
      ['npi'],
    );
    expect(await refusedFields({ npi: '1000000046', first_name: 'Jane', last_name: 'Smith' })).toEqual([
      'first_name',
      'last_name',
    ]);
    expect(await refusedFields({ npi: '1234567890', first_name: 'Bad', last_name: 'Check' })).toEqual([
      'npi',
    ]);

    const down = await authorize(account, {
      npi: '1888888884',
      first_name: 'Any',
      last_name: 'One',
      email: 'a@b.example',
    });
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('registry_unavailable');
    expect(Number(down.headers['retry-after'])).toBeGreaterThan(0);

    const accented = await authorize(account, { ...ELODIE, email: 'elodie@clinic.example' });
    expect(accented.status).toBe(201);
    expect(await listIds(account)).toEqual([accented.body.data.id]);
  });

  it.concurrent('refuses a second pending authorization of one NPI, naming the first', async () => {
    const account = await testApp.createAccount();
    const first = await authorize(account);
    const second = await authorize(account);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('invalid_state');
    expect(second.body.error.message).toContain(first.body.data.id);
  });

  it.concurrent(
    'reads an authorization back as its creation answered it, in the contract’s order of fields, alone and in the list',
    async () => {
      const account = await testApp.createAccount();
      const created = await authorize(account, {
        ...ELODIE,
        email: 'e@clinic.example',
        phone: '+1 206 555 0100',
      });
      expect(created.status).toBe(201);
      const id = created.body.data.id as string;

      const alone = await read(account, id);
      const listed = (await testApp.http().get('/provider-authorizations').set(bearer(account.keys.provider)))
        .body.data.data as JsonObject[];

      // Its workflow's first steps may write the row just after creation, which moves updated_at alone.
      const settled = (answer: JsonObject) =>
        Object.fromEntries(Object.entries(answer).filter(([field]) => field !== 'updated_at'));
      expect(settled(alone)).toEqual(settled(created.body.data));
      expect(listed.map(settled)).toEqual([settled(alone)]);
      for (const answer of [created.body.data, alone, listed[0]]) {
        expect(Object.keys(answer)).toEqual([
          'id',
          'object',
          'npi',
          'first_name',
          'last_name',
          'email',
          'phone',
          'practice',
          'status',
          'link_expires_at',
          'signed_at',
          'expires_at',
          'revoked_at',
          'created_at',
          'updated_at',
        ]);
      }
    },
  );

  it.concurrent(
    'lists by status and NPI with cursors, and answers 404 for another account’s or mode’s id',
    async () => {
      const account = await testApp.createAccount();
      const other = await testApp.createAccount();
      const amadou = (await authorize(account)).body.data.id as string;
      const elodie = (await authorize(account, { ...ELODIE, email: 'e@clinic.example' })).body.data
        .id as string;

      expect(await listIds(account)).toEqual([elodie, amadou]);
      expect(await listIds(account, { npi: AMADOU.npi })).toEqual([amadou]);
      expect(await listIds(account, { status: 'signed' })).toEqual([]);
      const firstPage = await testApp
        .http()
        .get('/provider-authorizations')
        .query({ limit: 1 })
        .set(bearer(account.keys.provider));
      expect(firstPage.body.data).toMatchObject({ has_more: true, data: [{ id: elodie }] });
      const secondPage = await testApp
        .http()
        .get('/provider-authorizations')
        .query({ limit: 1, cursor: firstPage.body.data.next_cursor })
        .set(bearer(account.keys.provider));
      expect(secondPage.body.data).toMatchObject({
        has_more: false,
        next_cursor: null,
        data: [{ id: amadou }],
      });

      const foreign = await testApp
        .http()
        .get(`/provider-authorizations/${amadou}`)
        .set(bearer(other.keys.provider));
      expect(foreign.status).toBe(404);
      const live = await testApp.createLiveKeys(account.accountId);
      expect(
        (await testApp.http().get(`/provider-authorizations/${amadou}`).set(bearer(live.provider))).status,
      ).toBe(404);
      expect(
        (
          await testApp
            .http()
            .post(`/provider-authorizations/${amadou}/revoke`)
            .set(bearer(other.keys.provider))
        ).status,
      ).toBe(404);
    },
  );

  it.concurrent(
    'pages the console list 25 at a time, linking on to older authorizations and back to the newest',
    async () => {
      const account = await testApp.createAccount();
      // The list reads the read model: 26 signed rows written into it, each of another prescriber.
      for (let prescriber = 0; prescriber < 26; prescriber += 1) {
        await authorizedPrescriber(testApp.db, account.accountId, false, {
          ...AMADOU,
          npi: String(1_000_000_000 + prescriber),
        });
      }
      const person = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);

      const newest = await getPage(testApp, person, '/console/providers');
      expect(newest.text).not.toContain('Newest authorizations');
      const older = /<a href="([^"]+)" rel="next">Older authorizations<\/a>/.exec(newest.text)![1]!;
      const oldest = await getPage(testApp, person, older);
      expect(oldest.text).toContain('<a href="/console/providers" rel="prev">Newest authorizations</a>');
      expect(oldest.text).not.toContain('Older authorizations');
    },
  );

  it.concurrent('is revoked through the API, once', async () => {
    const account = await testApp.createAccount();
    const receiver = await subscribe(account);
    const id = await signedAuthorization(account);

    const revoked = await testApp
      .http()
      .post(`/provider-authorizations/${id}/revoke`)
      .set(bearer(account.keys.provider));
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toMatchObject({ id, status: 'revoked', revoked_at: expect.any(String) });
    expect((await read(account, id)).status).toBe('revoked');
    const again = await testApp
      .http()
      .post(`/provider-authorizations/${id}/revoke`)
      .set(bearer(account.keys.provider));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_state');
    await eventually(async () =>
      receiver.notifications.some((notification) => (notification.data as JsonObject).status === 'revoked'),
    );
    await requireAuthorization(account, true);
    const refused = await testApp
      .http()
      .post('/benefit-verification')
      .set(bearer(account.keys.provider))
      .send(benefitVerificationRequest());
    expect(refused.status).toBe(409);

    const events = await testApp
      .http()
      .get('/events')
      .query({ type: 'provider_authorization.updated' })
      .set(bearer(account.keys.provider));
    expect(
      (events.body.data.data as JsonObject[])
        .filter((event) => (event.data as JsonObject).id === id)
        .map((event) => (event.data as JsonObject).status),
    ).toEqual(['revoked', 'signed', 'pending']);

    const audit = await testApp.http().get('/audit-events').set(bearer(account.keys.admin));
    const actions = (audit.body.data.data as JsonObject[])
      .filter((event) => (event.target as JsonObject | null)?.id === id)
      .map((event) => event.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'provider_authorization.created',
        'provider_authorization.signed',
        'provider_authorization.revoked',
      ]),
    );
  });

  it.concurrent('is revoked by the prescriber through the link in their confirmation', async () => {
    const account = await testApp.createAccount('Lakeside Clinic');
    const id = await signedAuthorization(account);
    const link = await mailedLink(account, id, 'provider_authorization.confirmation');

    const page = await testApp.http().get(pathOf(link));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Lakeside Clinic');
    const revoked = await submitPage(link);
    expect(revoked.status).toBe(200);
    expect(revoked.text).toContain('is revoked');
    expect(await read(account, id)).toMatchObject({ status: 'revoked' });
    expect((await testApp.http().get(pathOf(link))).status).toBe(410);
  });

  it.concurrent(
    'shows one page for a tampered, reused or unknown link, and keeps only hashes of ≥ 128-bit tokens',
    async () => {
      const account = await testApp.createAccount('Hillside Clinic');
      const created = await authorize(account);
      const id = created.body.data.id as string;
      const link = await mailedLink(account, id, 'provider_authorization.signing_link');
      const token = link.split('/').pop()!;
      expect(Buffer.from(token, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
      const stored = await testApp.db.query<{ token_sha256: string }>(
        'SELECT token_sha256 FROM provider_authorization_links WHERE authorization_id = $1',
        [id],
      );
      expect(stored.length).toBeGreaterThan(0);
      expect(JSON.stringify(stored)).not.toContain(token);

      const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      const closedPages = [
        await testApp.http().get(pathOf(link).replace(token, flipped)),
        await testApp.http().get(pathOf(link).replace(token, randomBytes(32).toString('base64url'))),
        await testApp.http().get(pathOf(link).replace(token, 'short')),
        await testApp.http().get(pathOf(link).replace('/sign/', '/revoke/')),
      ];
      expect((await sign(link, 'Someone Else')).status).toBe(400);
      // A second tab holding the form: its submit after the first one signed finds the link used.
      const secondTab = await testApp.http().get(pathOf(link));
      const secondTabCookie = cookiesFrom(secondTab.headers['set-cookie']);
      expect((await sign(link)).status).toBe(200);
      const resubmitted = await testApp
        .http()
        .post(pathOf(link))
        .set('Cookie', secondTabCookie)
        .type('form')
        .send({ ...hiddenFieldsOf(secondTab.text), typed_name: 'Amadou Reviewsworth', attest: 'yes' });
      closedPages.push(await testApp.http().get(pathOf(link)), resubmitted);

      for (const page of closedPages) {
        expect(page.status).toBe(410);
        expect(page.text).toContain('This link is no longer valid');
        expect(page.text).not.toContain('Hillside Clinic');
        expect(page.text).not.toContain('Amadou');
      }
      expect(new Set(closedPages.map((page) => page.text.replace(/value="[^"]+"/g, ''))).size).toBe(1);
    },
  );

  it.concurrent(
    'says so when the typed name is not the prescriber’s or the box is not ticked, accents and case aside',
    async () => {
      const account = await testApp.createAccount();
      const created = await authorize(account, { ...ELODIE, email: 'elodie@clinic.example' });
      const link = await mailedLink(account, created.body.data.id, 'provider_authorization.signing_link');

      const wrongName = await sign(link, 'Elodie Smith');
      expect(wrongName.status).toBe(400);
      expect(wrongName.text).toContain('Type your full name');
      const unticked = await submitPage(link, { typed_name: 'elodie d’arcy nguyen' });
      expect(unticked.status).toBe(400);
      expect(unticked.text).toContain('Tick the box');
      expect((await sign(link, "ELODIE D'ARCY-NGUYEN")).status).toBe(200);
    },
  );

  it.concurrent('shows each link only its own account’s name, and carries the console’s CSP', async () => {
    const first = await testApp.createAccount('First Clinic');
    const second = await testApp.createAccount('Second Clinic');
    const firstLink = await mailedLink(
      first,
      (await authorize(first)).body.data.id,
      'provider_authorization.signing_link',
    );
    const secondLink = await mailedLink(
      second,
      (await authorize(second)).body.data.id,
      'provider_authorization.signing_link',
    );

    const firstPage = await testApp.http().get(pathOf(firstLink));
    const secondPage = await testApp.http().get(pathOf(secondLink));
    expect(firstPage.text).toContain('First Clinic');
    expect(firstPage.text).not.toContain('Second Clinic');
    expect(secondPage.text).toContain('Second Clinic');
    expect(secondPage.text).not.toContain('First Clinic');

    const consolePage = await testApp.http().get('/console/sign-in');
    expect(firstPage.headers['content-security-policy']).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(firstPage.headers['content-security-policy']).toBe(consolePage.headers['content-security-policy']);
    expect(firstPage.headers['cache-control']).toBe('no-store');
  });

  it.concurrent(
    'ends a workflow whose row the API withdrew after a start it could not confirm, sending nothing',
    async () => {
      const account = await testApp.createAccount();
      const id = await startWithClock(account, {
        signingLinkTtlMs: 60_000,
        signingReminderAfterMs: 30_000,
        renewalReminderBeforeMs: 0,
        periodMs: 60_000,
        withdrawn: true,
      });
      const failure = await testApp.temporalClient.workflow
        .getHandle(id)
        .result()
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(WorkflowFailedError);
      // The workflow fails with its activity's failure, whose cause is the activity's own.
      const activityFailure = (failure as WorkflowFailedError).cause as ActivityFailure;
      expect((activityFailure.cause as ApplicationFailure).type).toBe('AuthorizationWithdrawn');
      const { messages } = await outbox.list(account.accountId, { livemode: false, limit: 10 });
      expect(messages).toEqual([]);
    },
  );

  it.concurrent(
    'answers a retried BV with the case it created, under its Idempotency-Key, though the authorization was revoked since',
    async () => {
      const account = await testApp.createAccount();
      await requireAuthorization(account, true);
      const id = await signedAuthorization(account);
      const body = benefitVerificationRequest();
      const post = () =>
        testApp
          .http()
          .post('/benefit-verification')
          .set(bearer(account.keys.provider))
          .set('Idempotency-Key', 'bv-retry-after-revoke')
          .send(body);
      const first = await post();
      expect(first.status).toBe(201);
      const revoked = await testApp
        .http()
        .post(`/provider-authorizations/${id}/revoke`)
        .set(bearer(account.keys.provider));
      expect(revoked.status).toBe(200);
      const retried = await post();
      expect(retried.status).toBe(201);
      expect(retried.body.data.id).toBe(first.body.data.id);
      const fresh = await testApp
        .http()
        .post('/benefit-verification')
        .set(bearer(account.keys.provider))
        .set('Idempotency-Key', 'bv-after-revoke')
        .send(benefitVerificationRequest());
      expect(fresh.body.error.code).toBe('provider_not_authorized');
    },
  );

  /**
   * Live mode end to end: the NPI checked against a real NPPES API on loopback, the signing link
   * mailed through the account's SMTP connector to a real SMTP server on loopback, and enforcement on
   * by default.
   */
  describe('in live mode', () => {
    let smtp: LoopbackSmtpServer;
    let account: TestAccount;
    let live: TestAccount['keys'];

    beforeAll(async () => {
      smtp = new LoopbackSmtpServer({ security: 'starttls', credentials: SMTP_CREDENTIALS });
      const smtpPort = await smtp.start();
      account = await testApp.createAccount('Riverside Clinic');
      live = await testApp.createLiveKeys(account.accountId, { authorizeTestPrescriber: false });
      const configured = await testApp
        .http()
        .put('/connectors/mail')
        .set(bearer(live.admin))
        .send({
          host: '127.0.0.1',
          port: smtpPort,
          security: 'starttls',
          ...SMTP_CREDENTIALS,
          from: 'prior-auth@clinic.example',
          ca_certificate: smtp.certificate,
          timeout_ms: 5_000,
        });
      expect(configured.status).toBe(200);
    });
    afterAll(() => smtp.stop());

    /** A live authorization of the registry's Elodie D'Arcy-Nguyen, its link mailed to `email`. */
    const authorizeLiveElodie = (email: string) =>
      testApp
        .http()
        .post('/provider-authorizations')
        .set(bearer(live.provider))
        .send({ npi: '1000000012', first_name: 'Elodie', last_name: "D'Arcy-Nguyen", email });

    /**
     * What a live BV is refused for: no authorization of its prescriber, or, once that passes, the live
     * eligibility connector this account has not set (this suite is about the authorization only).
     */
    const verificationRefusal = async () =>
      (
        await testApp
          .http()
          .post('/benefit-verification')
          .set(bearer(live.provider))
          .send(benefitVerificationRequest())
      ).body.error?.code;

    it('refuses a live BV’s prescriber until they, checked in NPPES and mailed over SMTP, sign', async () => {
      expect(await verificationRefusal()).toBe('provider_not_authorized');

      const created = await testApp
        .http()
        .post('/provider-authorizations')
        .set(bearer(live.provider))
        .send({ ...AMADOU, email: 'amadou@practice.example' });
      expect(created.status).toBe(201);
      expect(registry.requests.some((request) => request.includes('number=1234567893'))).toBe(true);

      const mail = await eventually(async () =>
        smtp.received.find((message) => message.to.includes('amadou@practice.example')),
      );
      expect(mail.secure).toBe(true);
      expect(mail.user).toBe(SMTP_CREDENTIALS.username);
      const link = /https:\/\/\S+\/console\/provider-authorization\/sign\/[A-Za-z0-9_-]{43}/.exec(
        mail.text,
      )![0];
      const path = link.slice(PUBLIC_API_URL.length);
      const page = await testApp.http().get(path);
      expect(page.text).toContain('Riverside Clinic');
      const signed = await testApp
        .http()
        .post(path)
        .set('Cookie', cookiesFrom(page.headers['set-cookie']))
        .type('form')
        .send({ ...hiddenFieldsOf(page.text), typed_name: 'Amadou Reviewsworth', attest: 'yes' });
      expect(signed.status).toBe(200);
      const shown = await testApp
        .http()
        .get(`/provider-authorizations/${created.body.data.id}`)
        .set(bearer(live.provider));
      expect((shown.body.data as JsonObject).status).toBe('signed');

      expect(await verificationRefusal()).toBe('invalid_state');
      const testMode = await testApp
        .http()
        .get(`/provider-authorizations/${created.body.data.id}`)
        .set(bearer(account.keys.provider));
      expect(testMode.status).toBe(404);
    });

    it('answers 503 registry_unavailable with Retry-After while NPPES is down, and creates nothing', async () => {
      registry.down = 'status';
      try {
        const refused = await authorizeLiveElodie('e@practice.example');
        expect(refused.status).toBe(503);
        expect(refused.body.error.code).toBe('registry_unavailable');
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        registry.recover();
      }
      const listed = await testApp
        .http()
        .get('/provider-authorizations')
        .query({ npi: '1000000012' })
        .set(bearer(live.provider));
      expect(listed.body.data.data).toEqual([]);
    });
    it('lapses an authorization at once when the SMTP server refuses its signing link for good, freeing the NPI', async () => {
      smtp.behaviour = 'reject';
      let id: string;
      try {
        const created = await authorizeLiveElodie('nobody@practice.example');
        expect(created.status).toBe(201);
        id = created.body.data.id as string;
        await waitForStatus(testApp, live.provider, '/provider-authorizations', id, 'expired', 15_000);
      } finally {
        smtp.behaviour = 'accept';
      }
      const again = await authorizeLiveElodie('elodie@practice.example');
      expect(again.status).toBe(201);
    });

    it('refuses a live authorization with 409 naming the mail connector when the account has none', async () => {
      const other = await testApp.createAccount();
      const keys = await testApp.createLiveKeys(other.accountId, { authorizeTestPrescriber: false });
      const refused = await testApp
        .http()
        .post('/provider-authorizations')
        .set(bearer(keys.provider))
        .send({ ...AMADOU, email: 'amadou@practice.example' });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toContain('PUT /connectors/mail');
      const listed = await testApp.http().get('/provider-authorizations').set(bearer(keys.provider));
      expect(listed.body.data.data).toEqual([]);
    });
  });

  /** A second API process on the same database and task queue as the first, `testApp`. */
  describe('enforcement across API processes', () => {
    let second: TestApp;

    beforeAll(async () => {
      second = await startTestApp(
        { PUBLIC_API_URL, TEMPORAL_TASK_QUEUE: testApp.config.temporal.taskQueue },
        { config: testApp.config, db: await anotherProcessHandle(testApp) },
      );
    });
    afterAll(() => second.close());

    const verifyThroughSecond = async (account: TestAccount) =>
      (
        await second
          .http()
          .post('/benefit-verification')
          .set(bearer(account.keys.provider))
          .send(benefitVerificationRequest())
      ).status;
    const requireThroughFirst = (account: TestAccount, test: boolean) =>
      testApp
        .http()
        .patch('/account-settings')
        .set(bearer(account.keys.admin))
        .send({ require_provider_authorization: { test } })
        .expect(200);

    it('refuses on the other process’s very next request once enforcement is turned on, and admits once it is off', async () => {
      const account = await testApp.createAccount();
      expect(await verifyThroughSecond(account)).toBe(201);

      await requireThroughFirst(account, true);
      expect(await verifyThroughSecond(account)).toBe(409);

      await requireThroughFirst(account, false);
      expect(await verifyThroughSecond(account)).toBe(201);
    });

    // The status was never kept in a process, before or since the setting moved into enforcement's one
    // statement, so this passes either way: it guards against a cache of authorizations added later.
    it('refuses on the other process’s very next request once the prescriber’s authorization is revoked, as no process keeps an authorization', async () => {
      const account = await testApp.createAccount();
      await requireThroughFirst(account, true);
      const created = await testApp
        .http()
        .post('/provider-authorizations')
        .set(bearer(account.keys.provider))
        .send({ ...AMADOU, email: 'amadou@clinic.example' })
        .expect(201);
      const id = created.body.data.id as string;
      const link = await mailedLink(account, id, 'provider_authorization.signing_link');
      expect(
        (await submitLinkPage(testApp, link, { typed_name: 'Amadou Reviewsworth', attest: 'yes' })).status,
      ).toBe(200);
      expect(await verifyThroughSecond(account)).toBe(201);

      await testApp
        .http()
        .post(`/provider-authorizations/${id}/revoke`)
        .set(bearer(account.keys.provider))
        .expect(200);
      expect(await verifyThroughSecond(account)).toBe(409);
    });
  });

  /** The console page where test mode keeps the prescribers' mail, for the account's admins only. */
  describe('the outbox page of the console', () => {
    let account: TestAccount;
    let admin: ConsoleBrowser;

    beforeAll(async () => {
      account = await testApp.createAccount('Clinic Outbox');
      admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
    });

    const send = (accountId: string, overrides: Partial<OutgoingMail> = {}) =>
      accountMailer({
        config: testApp.config,
        db: testApp.db,
        secrets: new SecretBox(testApp.config.encryption!),
      }).send({
        accountId,
        livemode: false,
        to: 'dr.okafor@practice.example',
        subject: 'Authorize Clinic Outbox to act for you',
        text: 'Dear Dr. Okafor,\n\nOpen https://api.clinic.example/sign/abc123 to review and sign.',
        purpose: 'provider_authorization.signing_link',
        objectId: 'pvauth_01jdoutbox00000000000000',
        idempotencyKey: randomBytes(8).toString('hex'),
        ...overrides,
      });

    it('lists the test-mode mail newest first, with recipient, subject and purpose, and opens one with its link clickable', async () => {
      await send(account.accountId, { subject: 'The older message' });
      const { messageId } = await send(account.accountId, { subject: 'The newer message' });

      const page = await getPage(testApp, admin, OUTBOX);
      expect(page.status).toBe(200);
      expect(page.text).toContain('Mail sent in test mode');
      expect(page.text.indexOf('The newer message')).toBeLessThan(page.text.indexOf('The older message'));
      expect(page.text).toContain('dr.okafor@practice.example');
      expect(page.text).toContain('Signing link');

      const message = await getPage(testApp, admin, `${OUTBOX}/${messageId}`);
      expect(message.status).toBe(200);
      expect(message.text).toContain('<a href="https://api.clinic.example/sign/abc123">');
      expect(message.text).toContain('Dear Dr. Okafor,');
      expect(message.text).toContain('pvauth_01jdoutbox00000000000000');
    });

    it('escapes what the message says, linking only http and https addresses', async () => {
      const { messageId } = await send(account.accountId, {
        subject: '<script>alert(1)</script>',
        text: 'javascript:alert(1) and <b>bold</b> and https://api.clinic.example/sign/xyz.',
      });
      const message = await getPage(testApp, admin, `${OUTBOX}/${messageId}`);
      expect(message.text).not.toContain('<script>alert(1)</script>');
      expect(message.text).not.toContain('<b>bold</b>');
      expect(message.text).not.toContain('href="javascript:');
      expect(message.text).toContain('<a href="https://api.clinic.example/sign/xyz">');
    });

    it('pages through the outbox, 25 messages at a time', async () => {
      const fresh = await testApp.createAccount('Busy outbox clinic');
      const busyAdmin = await consoleBrowserWithRoles(testApp, fresh.accountId, ['admin']);
      for (let index = 0; index < 27; index++) await send(fresh.accountId, { subject: `Message ${index}` });

      const first = await getPage(testApp, busyAdmin, OUTBOX);
      expect(first.text.match(/>Message \d+</g)).toHaveLength(25);
      const older = /href="(\/console\/providers\/outbox\?cursor=[^"]+)"/.exec(first.text)![1]!;
      const second = await getPage(testApp, busyAdmin, older.replace(/&amp;/g, '&'));
      expect(second.text.match(/>Message \d+</g)).toEqual(['>Message 1<', '>Message 0<']);
      expect(second.text).toContain('Newest mail');
    });

    it('says in live mode that the outbox holds test-mode mail only', async () => {
      const switched = await postForm(testApp, admin, '/console/mode', { mode: 'live', return_to: OUTBOX });
      const live = { ...admin, cookie: cookiesFrom(switched.headers['set-cookie'], admin.cookie) };
      const page = await getPage(testApp, live, OUTBOX);
      expect(page.status).toBe(200);
      expect(page.text).toContain('The outbox holds test-mode mail only.');
      expect(page.text).toContain('href="/console/connectors/mail"');
      expect(page.text).not.toContain('dr.okafor@practice.example');
    });

    it("never shows another account's mail to its admins", async () => {
      const { messageId } = await send(account.accountId, { subject: 'For Clinic Outbox only' });
      const other = await testApp.createAccount('Other clinic');
      const otherAdmin = await consoleBrowserWithRoles(testApp, other.accountId, ['admin']);

      const page = await getPage(testApp, otherAdmin, OUTBOX);
      expect(page.text).not.toContain('For Clinic Outbox only');
      expect(page.text).toContain('No mail has been sent in this mode yet.');
      expect((await getPage(testApp, otherAdmin, `${OUTBOX}/${messageId}`)).status).toBe(404);
    });

    it('shows people who are not admins the 403 page', async () => {
      const { messageId } = await send(account.accountId);
      for (const role of ['provider', 'reviewer'] as const) {
        const person = await consoleBrowserWithRoles(testApp, account.accountId, [role]);
        for (const path of [OUTBOX, `${OUTBOX}/${messageId}`]) {
          const page = await getPage(testApp, person, path);
          expect(page.status).toBe(403);
          expect(page.text).not.toContain('dr.okafor@practice.example');
        }
      }
    });
  });

  /**
   * The registry lookup against loopback registries in both modes, whose requests a test counts and
   * whose failures it plays: served by another API process on this suite's database, as the suite's
   * own app keeps test mode on the built-in sandbox registry its authorizations are checked against.
   */
  describe('GET /providers/lookup', () => {
    const sandboxRegistry = new LoopbackNpiRegistry();
    const liveRegistry = new LoopbackNpiRegistry();
    let lookupApp: TestApp;
    let account: TestAccount;
    let liveProviderKey: string;

    beforeAll(async () => {
      const [sandboxUrl, liveUrl] = await Promise.all([sandboxRegistry.start(), liveRegistry.start()]);
      const { providers } = testConfig({ SANDBOX_NPI_REGISTRY_URL: sandboxUrl, NPI_REGISTRY_URL: liveUrl });
      lookupApp = await startTestApp(
        {},
        { config: { ...testApp.config, providers }, db: await anotherProcessHandle(testApp) },
      );
      account = await lookupApp.createAccount();
      liveProviderKey = (await lookupApp.createLiveKeys(account.accountId)).provider;
    });
    afterEach(() => {
      sandboxRegistry.recover();
      liveRegistry.recover();
    });
    afterAll(async () => {
      await lookupApp.close();
      await Promise.all([sandboxRegistry.stop(), liveRegistry.stop()]);
    });

    const lookup = (query: string, key = account.keys.provider) =>
      lookupApp.http().get(`/providers/lookup?${query}`).set(bearer(key));

    it("answers an NPI with the registry's record in the contract's shape", async () => {
      const response = await lookup(`npi=${SANDBOX_NPIS.active}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        status: 'success',
        error: null,
        data: {
          object: 'provider_registry_record',
          npi: '1234567893',
          type: 'individual',
          name: 'AMADOU REVIEWSWORTH',
          credential: 'MD',
          taxonomy: { code: '207Q00000X', description: 'Family Medicine' },
          practice_address: {
            line1: '100 SANDBOX WAY',
            line2: 'SUITE 200',
            city: 'PORTLAND',
            state: 'OR',
            postal_code: '972010000',
            phone: '503-555-0100',
          },
          active: true,
        },
      });
    });

    it('answers an organization and a deactivated NPI, the latter as inactive', async () => {
      expect((await lookup(`npi=${SANDBOX_NPIS.organization}`)).body.data).toMatchObject({
        type: 'organization',
        name: 'SANDBOX RIVERSIDE FAMILY PRACTICE',
        credential: null,
      });
      expect((await lookup(`npi=${SANDBOX_NPIS.deactivated}`)).body.data).toMatchObject({ active: false });
    });

    it('answers 404 for an NPI the registry does not return', async () => {
      const response = await lookup(`npi=${SANDBOX_NPIS.notReturned}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    });

    it('answers a last name and state with a list of the individuals practising there', async () => {
      const response = await lookup('last_name=Quintero&state=or');
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
      expect(response.body.data.data.map((record: { name: string }) => record.name)).toEqual([
        'LUCIA QUINTERO',
        'MATEO R QUINTERO',
      ]);
      expect(sandboxRegistry.requests.at(-1)).toBe(
        '/api/?version=2.1&last_name=QUINTERO&state=OR&enumeration_type=NPI-1&limit=21',
      );
    });

    it('asks for a last name as the registry spells it, without accents', async () => {
      const response = await lookup(`last_name=${encodeURIComponent("d'Árcy-Nguyen")}&state=wa`);
      expect(response.body.data.data.map((record: { npi: string }) => record.npi)).toEqual([
        SANDBOX_NPIS.activeHyphenated,
      ]);
    });

    it('asks for a last name typed with a typographic apostrophe with the plain one', async () => {
      const response = await lookup(`last_name=${encodeURIComponent('D’Arcy-Nguyen')}&state=WA`);
      expect(sandboxRegistry.requests.at(-1)).toContain('last_name=D%27ARCY-NGUYEN&');
      expect(response.body.data.data.map((record: { npi: string }) => record.npi)).toEqual([
        SANDBOX_NPIS.activeHyphenated,
      ]);
    });

    it.each([
      ['neither form', '', ['npi']],
      ['both forms', `npi=${SANDBOX_NPIS.active}&last_name=Quintero&state=OR`, ['npi']],
      ['a last name without a state', 'last_name=Quintero', ['state']],
      ['a state without a last name', 'state=OR', ['npi', 'last_name']],
      ['an NPI whose check digit is wrong', 'npi=1234567890', ['npi']],
      ['a wildcard in the last name', 'last_name=Qu*&state=OR', ['last_name']],
    ])('answers 400 naming the fields for %s', async (_, query, fields) => {
      const response = await lookup(query);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_error');
      const named = response.body.error.details.map((detail: { field: string }) => detail.field);
      expect(named).toEqual(expect.arrayContaining(fields));
    });

    it("answers 400 on the field the registry refuses, without the registry's words", async () => {
      sandboxRegistry.refuseQueries('last_name');
      const response = await lookup('last_name=Refused&state=OR');
      expect(response.status).toBe(400);
      expect(response.body.error.details).toEqual([
        { field: 'last_name', issue: 'the NPI registry cannot search by this value' },
      ]);
      expect(JSON.stringify(response.body)).not.toContain('two characters');
    });

    it('answers 503 registry_unavailable with Retry-After when the registry is down, and again once it is back', async () => {
      const outage = await lookup(`npi=${SANDBOX_NPIS.registryDown}`);
      expect(outage.status).toBe(503);
      expect(outage.body.error.code).toBe('registry_unavailable');
      expect(outage.headers['retry-after']).toBe('30');

      sandboxRegistry.down = 'reset';
      expect((await lookup('last_name=Elsewhere&state=OR')).status).toBe(503);
      sandboxRegistry.recover();
      expect((await lookup('last_name=Elsewhere&state=OR')).body.data.data).toHaveLength(1);
    });

    it('answers 503 when the live registry answers neither results nor Errors, and keeps no "not returned"', async () => {
      liveRegistry.reply = { status: 200, body: '{}' };
      const outage = await lookup(`npi=${SANDBOX_NPIS.organization}`, liveProviderKey);
      expect(outage.status).toBe(503);
      expect(outage.body.error.code).toBe('registry_unavailable');
      expect(outage.headers['retry-after']).toBe('30');

      liveRegistry.recover();
      const found = await lookup(`npi=${SANDBOX_NPIS.organization}`, liveProviderKey);
      expect(found.status).toBe(200);
      expect(found.body.data.name).toBe('SANDBOX RIVERSIDE FAMILY PRACTICE');
    });

    it('answers a repeated lookup from the cache, without asking the registry again', async () => {
      await lookup(`npi=${SANDBOX_NPIS.nameMismatch}`);
      const served = sandboxRegistry.requestsServed;
      const again = await lookup(`npi=${SANDBOX_NPIS.nameMismatch}`);
      expect(again.body.data.name).toBe('MORGAN ELSEWHERE');
      expect(sandboxRegistry.requestsServed).toBe(served);
    });

    it("asks the live registry for a live key, and the sandbox's for a test key", async () => {
      const [liveBefore, sandboxBefore] = [liveRegistry.requestsServed, sandboxRegistry.requestsServed];
      const response = await lookup(`npi=${SANDBOX_NPIS.activeHyphenated}`, liveProviderKey);
      expect(response.status).toBe(200);
      expect(liveRegistry.requestsServed - liveBefore).toBe(1);
      expect(sandboxRegistry.requestsServed).toBe(sandboxBefore);
    });

    it('is refused to a key without the provider role', async () => {
      const response = await lookup(`npi=${SANDBOX_NPIS.active}`, account.keys.reviewer);
      expect(response.status).toBe(403);
    });
  });

  /**
   * A benefit verification or prior authorization asks the NPI registry of its mode about its
   * prescriber (the sandbox registry for a test key) and goes on whatever it answers, with the reason
   * on the case when the registry lends nothing. Enforcement is off, as a test-mode account has it.
   */
  describe('a case keeps what the NPI registry says of its prescriber', () => {
    let account: TestAccount;
    beforeAll(async () => {
      account = await testApp.createAccount();
    });

    async function settledCase(path: string, body: object, status: string): Promise<JsonObject> {
      const created = await testApp.http().post(path).set(bearer(account.keys.provider)).send(body);
      expect(created.status).toBe(201);
      return waitForStatus(testApp, account.keys.provider, path, created.body.data.id as string, status);
    }

    it("lends a benefit verification the registry's practice address and taxonomy when the prescriber matches", async () => {
      const done = await settledCase('/benefit-verification', benefitVerificationRequest(), 'completed');
      expect(done.prescriber_registry).toEqual({
        outcome: 'matched',
        checked_at: expect.any(String),
        practice_address: expect.objectContaining({
          city: expect.any(String),
          state_province: expect.any(String),
        }),
        taxonomy: { code: '207Q00000X', description: expect.any(String) },
      });
    });

    it('goes on without the extras, saying so, when the registry names someone else', async () => {
      const request = priorAuthorizationRequest({
        provider: { ...AMADOU, npi: SANDBOX_NPIS.nameMismatch },
      });
      const review = await settledCase('/prior-authorization', request, 'awaiting_review');
      expect(review.prescriber_registry).toMatchObject({
        outcome: 'name_mismatch',
        practice_address: null,
        taxonomy: null,
      });
    });

    it('goes on when the registry lists the NPI as deactivated, saying so', async () => {
      const request = benefitVerificationRequest({
        provider: { ...AMADOU, npi: SANDBOX_NPIS.deactivated },
      });
      const done = await settledCase('/benefit-verification', request, 'completed');
      expect(done.prescriber_registry).toMatchObject({ outcome: 'inactive', taxonomy: null });
    });

    it('goes on when the registry is down, saying so', async () => {
      const request = benefitVerificationRequest({
        provider: { ...AMADOU, npi: SANDBOX_NPIS.registryDown },
      });
      const done = await settledCase('/benefit-verification', request, 'completed');
      expect(done.prescriber_registry).toMatchObject({
        outcome: 'registry_unavailable',
        practice_address: null,
      });
    });

    it('says the registry does not know an NPI it never returns', async () => {
      const request = priorAuthorizationRequest({ provider: { ...AMADOU, npi: SANDBOX_NPIS.notReturned } });
      const review = await settledCase('/prior-authorization', request, 'awaiting_review');
      expect(review.prescriber_registry).toMatchObject({ outcome: 'not_found' });
    });
  });
});

const CREDENTIALS = { username: 'clinic-mailer', password: 'smtp-password-8842' };
const SIGNING_LINK = `https://api.clinic.example/sign/${randomBytes(24).toString('base64url')}`;

/**
 * One embedded database for the mail suites and the storage suites on PGlite, as opening one costs
 * seconds: the mail suites write accounts and mail, which no storage test counts, and no
 * authorization or link, which the storage suites' sweepers count. The file closes it last.
 */
let embedded: Promise<Database> | undefined;
const sharedEmbeddedDatabase = () => (embedded ??= openMigratedMemoryDatabase());
afterAll(async () => {
  await (await embedded)?.close();
});

/**
 * The mail connector prescribers' links go through, and the outbox test mode keeps instead, on a
 * database apart from the app's (a message kept 31 days on purges every older one in the database).
 */
describe('mail to prescribers', () => {
  /** One database for the mailer and the outbox it keeps. */
  let db: Database;
  beforeAll(async () => {
    db = await sharedEmbeddedDatabase();
    await migrate(db);
  });

  describe('the account mailer', () => {
    let config: AppConfig;
    let secrets: SecretBox;
    let accounts: AccountsRepository;
    let connectors: ConnectorsService;
    let starttls: LoopbackSmtpServer;
    let smtps: LoopbackSmtpServer;
    let starttlsPort: number;
    let smtpsPort: number;

    beforeAll(async () => {
      config = testConfig();
      secrets = new SecretBox(config.encryption!);
      accounts = new AccountsRepository(db);
      connectors = new ConnectorsService(
        new ConnectorSettingsRepository(db, secrets),
        new WebhookTargetPolicy(config.webhooks.allowedTargets),
      );
      starttls = new LoopbackSmtpServer({ security: 'starttls', credentials: CREDENTIALS });
      smtps = new LoopbackSmtpServer({ security: 'tls', credentials: CREDENTIALS });
      [starttlsPort, smtpsPort] = await Promise.all([starttls.start(), smtps.start()]);
    });
    afterAll(async () => {
      await Promise.all([starttls.stop(), smtps.stop()]);
    });
    beforeEach(() => {
      starttls.behaviour = 'accept';
    });

    const mailer = (mode: AppConfig['mode'] = 'worker') =>
      accountMailer({ config: { ...config, mode }, db, secrets });

    const newAccount = async () => (await accounts.createAccount('Mail clinic')).id;

    const signingMail = (accountId: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
      accountId,
      livemode: true,
      to: 'dr.rivera@practice.example',
      subject: 'Authorize Mail clinic to act for you',
      text: `Open this link to review and sign: ${SIGNING_LINK}`,
      purpose: 'provider_authorization.signing_link',
      objectId: 'pvauth_01jdexample000000000000000',
      idempotencyKey: `pvauth-signing-link-${randomBytes(6).toString('hex')}`,
      ...overrides,
    });

    /** The account's mail connector, set as an admin sets it through the API. */
    const configureMail = async (
      accountId: string,
      server: LoopbackSmtpServer,
      port: number,
      overrides: Record<string, unknown> = {},
    ) =>
      connectors.configure(
        accountId,
        'mail',
        await validatedConnectorSettings('mail', {
          host: '127.0.0.1',
          port,
          security: server.security,
          ...CREDENTIALS,
          from: 'prior-auth@clinic.example',
          ca_certificate: server.certificate,
          timeout_ms: 5_000,
          ...overrides,
        }),
      );

    it('delivers live mail over STARTTLS, authenticated, with the text and link intact', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);
      const mail = signingMail(accountId);

      const { messageId } = await mailer().send(mail);

      const received = starttls.received.find((message) => message.messageId === messageId)!;
      expect(received).toMatchObject({
        from: 'prior-auth@clinic.example',
        to: ['dr.rivera@practice.example'],
        secure: true,
        user: CREDENTIALS.username,
        subject: mail.subject,
      });
      expect(starttls.authAttempts).toContainEqual({ username: CREDENTIALS.username, secure: true });
      expect(['PLAIN', 'LOGIN']).toContain(received.authMethod);
      expect(received.text).toBe(mail.text);
    });

    it('delivers live mail over TLS from the first byte', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, smtps, smtpsPort);

      const { messageId } = await mailer().send(signingMail(accountId));

      expect(smtps.received.find((message) => message.messageId === messageId)).toMatchObject({
        secure: true,
      });
    });

    it('gives one Message-ID per idempotency key, so a resend is recognisably the same message', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);
      const mail = signingMail(accountId);

      const first = await mailer().send(mail);
      const again = await mailer().send(mail);
      const other = await mailer().send({ ...mail, idempotencyKey: `${mail.idempotencyKey}-reminder` });

      expect(again.messageId).toBe(first.messageId);
      expect(other.messageId).not.toBe(first.messageId);
    });

    it('refuses for good when the server rejects the message (550): retrying cannot change it', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);
      starttls.behaviour = 'reject';

      const sent = mailer().send(signingMail(accountId));

      await expect(sent).rejects.toThrow(MailNotSentError);
      await expect(sent).rejects.toMatchObject({ reason: 'rejected' });
    });

    it('fails to be retried when the server defers (451) or drops the connection, naming no recipient', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);

      for (const behaviour of ['defer', 'drop'] as const) {
        starttls.behaviour = behaviour;
        const error = await mailer()
          .send(signingMail(accountId))
          .then(
            () => undefined,
            (failure: unknown) => failure as Error,
          );
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(MailNotSentError);
        expect(error!.message).not.toContain('practice.example');
      }
    });

    it('gives up on a server that stops answering at its time limit, to be retried', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort, { timeout_ms: 1_000 });
      starttls.behaviour = 'hang';
      const started = Date.now();

      const error = await mailer()
        .send(signingMail(accountId))
        .then(
          () => undefined,
          (failure: unknown) => failure as Error,
        );

      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(MailNotSentError);
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('never sends to a server whose certificate the connector does not trust, and asks for the setting to be fixed', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);
      await connectors.configure(
        accountId,
        'mail',
        await validatedConnectorSettings('mail', {
          host: '127.0.0.1',
          port: starttlsPort,
          security: 'starttls',
          username: CREDENTIALS.username,
          from: 'prior-auth@clinic.example',
        }),
      );
      const delivered = starttls.received.length;

      const sent = mailer().send(signingMail(accountId));

      await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'not_configured' });
      await expect(sent).rejects.toThrow(
        /certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\): fix the connector's/,
      );
      expect(starttls.received).toHaveLength(delivered);
    });

    it('never sends to a server whose trusted certificate is for another name, and asks for the setting to be fixed', async () => {
      const elsewhere = new LoopbackSmtpServer({
        security: 'starttls',
        credentials: CREDENTIALS,
        certificateNames: 'DNS:mail.elsewhere.example',
      });
      const port = await elsewhere.start();
      try {
        const accountId = await newAccount();
        await configureMail(accountId, elsewhere, port);

        const sent = mailer().send(signingMail(accountId));

        await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'not_configured' });
        await expect(sent).rejects.toThrow(/not trusted \(ERR_TLS_CERT_ALTNAME_INVALID\)/);
        expect(elsewhere.received).toEqual([]);
        expect(elsewhere.authAttempts).toEqual([]);
      } finally {
        await elsewhere.stop();
      }
    });

    it('never sends in clear, nor its password, to a server that does not offer STARTTLS', async () => {
      const clear = new LoopbackSmtpServer({
        security: 'starttls',
        credentials: CREDENTIALS,
        offerStartTls: false,
      });
      const port = await clear.start();
      try {
        const accountId = await newAccount();
        await configureMail(accountId, clear, port);

        const sent = mailer().send(signingMail(accountId));

        await expect(sent).rejects.toThrow('The SMTP server refused STARTTLS (500)');
        await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'rejected' });
        expect(clear.received).toEqual([]);
        expect(clear.authAttempts).toEqual([]);
      } finally {
        await clear.stop();
      }
    });

    it('is not configured in live mode without a mail connector', async () => {
      const sent = mailer().send(signingMail(await newAccount()));

      await expect(sent).rejects.toMatchObject({ name: 'MailNotSentError', reason: 'not_configured' });
    });

    it('keeps test-mode mail in the outbox, sealed, and a retry writes it once', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);
      const delivered = starttls.received.length;
      const mail = signingMail(accountId, { livemode: false });

      const first = await mailer().send(mail);
      const retried = await mailer().send(mail);

      expect(retried.messageId).toBe(first.messageId);
      expect(starttls.received).toHaveLength(delivered);
      const outbox = new MailOutboxRepository(db, secrets);
      const page = await outbox.list(accountId, { livemode: false, limit: 10 });
      expect(page.messages).toEqual([
        expect.objectContaining({ id: first.messageId, to: mail.to, subject: mail.subject, text: mail.text }),
      ]);
      const [row] = await db.query<Record<string, string>>('SELECT * FROM mail_outbox WHERE id = $1', [
        first.messageId,
      ]);
      expect(JSON.stringify(row)).not.toContain(SIGNING_LINK);
      expect(JSON.stringify(row)).not.toContain(mail.to);
    });

    it('keeps every mode of a local install in the outbox, live mail included', async () => {
      const accountId = await newAccount();
      await configureMail(accountId, starttls, starttlsPort);
      const delivered = starttls.received.length;

      const { messageId } = await mailer('local').send(signingMail(accountId));

      expect(starttls.received).toHaveLength(delivered);
      const kept = await new MailOutboxRepository(db, secrets).get(accountId, messageId);
      expect(kept).toMatchObject({ livemode: true, purpose: 'provider_authorization.signing_link' });
    });
  });

  describe('the mail outbox', () => {
    let secrets: SecretBox;
    let outbox: MailOutboxRepository;
    let accounts: AccountsRepository;

    beforeAll(async () => {
      secrets = new SecretBox({ currentKeyId: 'k1', keys: new Map([['k1', randomBytes(32)]]) });
      outbox = new MailOutboxRepository(db, secrets);
      accounts = new AccountsRepository(db);
    });

    /** The outbox as it reads on a day some days from now. */
    const outboxInDays = (days: number) =>
      new MailOutboxRepository(db, secrets, () => new Date(Date.now() + days * DAY_MS));

    /** A message as the outbox holds it once it was kept that many days ago. */
    const ageMessage = (id: string, days: number) =>
      db.query(`UPDATE mail_outbox SET created_at = now() - make_interval(days => $2) WHERE id = $1`, [
        id,
        days,
      ]);

    const newAccount = async () => (await accounts.createAccount('Outbox clinic')).id;

    const mail = (accountId: string, overrides: Partial<OutgoingMail> = {}): OutgoingMail => ({
      accountId,
      livemode: false,
      to: 'dr.chen@practice.example',
      subject: 'Your authorization is signed',
      text: 'Thank you. Revoke it at any time: https://api.clinic.example/revoke/abc',
      purpose: 'provider_authorization.confirmation',
      objectId: 'pvauth_01jdoutboxrepo000000000000',
      idempotencyKey: randomBytes(8).toString('hex'),
      ...overrides,
    });

    it('keeps the first message of an idempotency key: a retry, even with other words, writes nothing', async () => {
      const accountId = await newAccount();
      const first = await outbox.record(mail(accountId, { idempotencyKey: 'confirmation-1' }));
      const retried = await outbox.record(
        mail(accountId, { idempotencyKey: 'confirmation-1', subject: 'A different subject' }),
      );

      expect(first.recorded).toBe(true);
      expect(retried).toEqual({ id: first.id, recorded: false });
      const page = await outbox.list(accountId, { livemode: false, limit: 10 });
      expect(page.messages.map((message) => message.subject)).toEqual(['Your authorization is signed']);
    });

    it("lists one mode's messages newest first, page by page, and another account's never", async () => {
      const accountId = await newAccount();
      const other = await newAccount();
      for (const subject of ['first', 'second', 'third']) await outbox.record(mail(accountId, { subject }));
      await outbox.record(mail(accountId, { subject: 'live', livemode: true }));
      await outbox.record(mail(other, { subject: 'elsewhere' }));

      const firstPage = await outbox.list(accountId, { livemode: false, limit: 2 });
      const secondPage = await outbox.list(accountId, {
        livemode: false,
        limit: 2,
        after: keysetPosition(firstPage.nextCursor!),
      });

      expect(firstPage.messages.map((message) => message.subject)).toEqual(['third', 'second']);
      expect(secondPage).toEqual({
        messages: [expect.objectContaining({ subject: 'first' })],
        nextCursor: null,
      });
      const live = await outbox.list(accountId, { livemode: true, limit: 10 });
      expect(live.messages.map((message) => message.subject)).toEqual(['live']);
      expect(await outbox.get(other, firstPage.messages[0]!.id)).toBeUndefined();
    });

    // Recording a message 31 days on purges every older one, the mailer's above too: this file's tests
    // run in order, and none after this one reads a message recorded before it.
    it(`forgets messages after ${MAIL_OUTBOX_RETENTION_DAYS} days, when the next one is kept`, async () => {
      const accountId = await newAccount();
      const old = await outbox.record(mail(accountId, { subject: 'old' }));

      await outboxInDays(29).record(mail(accountId, { subject: 'new' }));
      const [kept] = await db.query('SELECT id FROM mail_outbox WHERE id = $1', [old.id]);
      expect(kept).toBeDefined();
      await outboxInDays(MAIL_OUTBOX_RETENTION_DAYS + 1).record(mail(accountId, { subject: 'newer' }));
      expect(await db.query('SELECT id FROM mail_outbox WHERE id = $1', [old.id])).toEqual([]);
    });

    it(`never shows a message past ${MAIL_OUTBOX_RETENTION_DAYS} days, even when no mail has come since`, async () => {
      const accountId = await newAccount();
      const recent = await outbox.record(mail(accountId, { subject: 'recent' }));
      const expired = await outbox.record(mail(accountId, { subject: 'expired' }));
      await ageMessage(recent.id, MAIL_OUTBOX_RETENTION_DAYS - 1);
      await ageMessage(expired.id, MAIL_OUTBOX_RETENTION_DAYS + 1);

      const page = await outbox.list(accountId, { livemode: false, limit: 10 });

      expect(page).toEqual({ messages: [expect.objectContaining({ subject: 'recent' })], nextCursor: null });
      expect(await outbox.get(accountId, expired.id)).toBeUndefined();
      expect(await outbox.get(accountId, recent.id)).toMatchObject({ subject: 'recent' });
      const daysLater = outboxInDays(2);
      expect(await daysLater.list(accountId, { livemode: false, limit: 10 })).toEqual({
        messages: [],
        nextCursor: null,
      });
      expect(await daysLater.get(accountId, recent.id)).toBeUndefined();
    });

    it(`keeps a message anew when the one its idempotency key first kept is past ${MAIL_OUTBOX_RETENTION_DAYS} days`, async () => {
      const accountId = await newAccount();
      const first = await outbox.record(mail(accountId, { idempotencyKey: 'reminder-1', subject: 'first' }));
      await ageMessage(first.id, MAIL_OUTBOX_RETENTION_DAYS + 1);

      const again = await outbox.record(mail(accountId, { idempotencyKey: 'reminder-1', subject: 'again' }));

      expect(again.recorded).toBe(true);
      expect(again.id).not.toBe(first.id);
      const page = await outbox.list(accountId, { livemode: false, limit: 10 });
      expect(page.messages.map((message) => message.subject)).toEqual(['again']);
    });
  });
});

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
 * What the provider authorization repositories and sweepers store, on one database per engine (on
 * PGlite the mail suites' one), as a fresh database costs seconds to start. Each part keeps to
 * accounts of its own, and only the links' part issues links or signs, so what a sweeper counts is
 * its own part's.
 */
describe.each(engines)('provider authorization storage on %s', (engine, open) => {
  const embeddedEngine = engine === 'PGlite';
  let db: Database;

  beforeAll(async () => {
    db = embeddedEngine ? await sharedEmbeddedDatabase() : await open();
    await migrate(db);
  });
  afterAll(() => (embeddedEngine ? undefined : db.close()));

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

describe('the name a prescriber types to sign', () => {
  it('matches their first and last name whatever the case, accents, apostrophes and hyphens', () => {
    expect(typedNameMatches("elodie d'arcy nguyen", 'Élodie', "D'Arcy-Nguyen")).toBe(true);
    expect(typedNameMatches('  ÉLODIE   D’ARCY-NGUYEN ', 'Elodie', "D'Arcy-Nguyen")).toBe(true);
    expect(typedNameMatches('Amadou Reviewsworth', 'Amadou', 'Reviewsworth')).toBe(true);
  });

  it('reads letters Unicode does not split and full-width letters as the registry check reads them', () => {
    expect(typedNameMatches('Søren Łukasiewicz', 'Soren', 'Lukasiewicz')).toBe(true);
    expect(typedNameMatches('Ævar Ødegård', 'AEVAR', 'ODEGARD')).toBe(true);
    expect(typedNameMatches('Ｊｏｓé Ｇａｒｃíａ', 'José', 'García')).toBe(true);
  });

  it('does not match another name, a last name alone, or nothing', () => {
    expect(typedNameMatches('Elodie Smith', 'Élodie', "D'Arcy-Nguyen")).toBe(false);
    expect(typedNameMatches('Reviewsworth', 'Amadou', 'Reviewsworth')).toBe(false);
    expect(typedNameMatches('   ', 'Amadou', 'Reviewsworth')).toBe(false);
  });

  it('compares names with accents, case, punctuation and spacing set aside', () => {
    expect(comparableName("José O'Brien")).toBe(comparableName('jose obrien'));
  });
});

describe('the network a client address stands for', () => {
  it('is an IPv4 address itself, also when a dual-stack socket writes it as IPv6', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(networkOf('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(networkOf('203.0.113.8')).not.toBe(networkOf('203.0.113.7'));
  });

  it('is the /64 of an IPv6 address, however the address is written', () => {
    expect(networkOf('2001:db8:85a3:12::8a2e:370:7334')).toBe('2001:db8:85a3:12::/64');
    expect(networkOf('2001:0DB8:85A3:0012:0000:0000:0000:0001')).toBe('2001:db8:85a3:12::/64');
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(networkOf('::1')).toBe('0:0:0:0::/64');
    expect(networkOf('2001:db8:85a3:13::1')).not.toBe(networkOf('2001:db8:85a3:12::1'));
  });

  it('is none for what is not an address', () => {
    for (const text of [
      'unknown',
      '',
      '256.0.0.1',
      '1.2.3',
      '2001:db8::1::2',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:8:9',
      'g::1',
      '::ffff:1.2.3.999',
    ])
      expect(networkOf(text)).toBeUndefined();
  });
});

/** Failures a loopback server cannot easily stage: certificates out of date, codes nested in a cause. */
describe('a failed SMTP send', () => {
  const certificateError = (code: string) => Object.assign(new Error('certificate verify failed'), { code });

  it.each([
    'CERT_HAS_EXPIRED',
    'CERT_NOT_YET_VALID',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  ])('is a connector to fix, not a retry, when the certificate does not verify (%s)', (code) => {
    const failure = classifiedSmtpFailure(certificateError(code));

    expect(failure).toBeInstanceOf(MailNotSentError);
    expect(failure).toMatchObject({ reason: 'not_configured' });
    expect(failure.message).toContain(`(${code}): fix the connector's`);
  });

  it('is a connector to fix when the certificate failure is the cause of a wrapping error', () => {
    const wrapped = new Error('Connection failed', { cause: certificateError('CERT_HAS_EXPIRED') });

    expect(classifiedSmtpFailure(wrapped)).toMatchObject({ reason: 'not_configured' });
  });

  it('is retried when the connection fails for any other reason, naming no server words', () => {
    const reset = Object.assign(new Error('read ECONNRESET from mx.practice.example'), {
      code: 'ECONNRESET',
    });

    const failure = classifiedSmtpFailure(reset);

    expect(failure).not.toBeInstanceOf(MailNotSentError);
    expect(failure.message).toBe('The SMTP server could not take the message now (ECONNRESET)');
  });
});
