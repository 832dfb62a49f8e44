import { WithStartWorkflowOperation } from '@temporalio/client';

import { DAY_MS } from '../../domain/durations';
import { newId } from '../../domain/ids';
import type { ProviderAuthorization } from '../../domain/providers/provider-authorization';
import { addressTo } from '../../domain/temporal/message-address';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { MailOutboxRepository } from '../../infrastructure/mail/mail-outbox.repository';
import { ProviderAuthorizationsRepository } from '../../infrastructure/provider-authorizations/provider-authorizations.repository';
import type { Database } from '../../infrastructure/storage/database';
import { PROVIDER_AUTHORIZATION_WORKFLOW } from '../../src/provider-authorizations/provider-authorizations.service';
import { revokeAuthorizationUpdate } from '../../workflows/provider-authorization.messages';
import type {
  AuthorizationClock,
  ProviderAuthorizationInput,
} from '../../workflows/provider-authorization.workflow';
import { cookiesFrom, hiddenFieldsOf } from './console-session';
import { eventually, type TestApp } from './test-app';

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

/** The sandbox registry's active prescriber (infrastructure/providers/sandbox-registry.ts). */
export const AMADOU = { npi: '1234567893', first_name: 'Amadou', last_name: 'Reviewsworth' };

/** The address test apps give links under (PUBLIC_API_URL), so a mailed link names a path of the app. */
export const LINK_BASE_URL = 'https://api.clinic-service.example';

/** The path of a mailed link, as the test app serves it. */
export const pathOf = (link: string) => link.slice(LINK_BASE_URL.length);

/** The link of the newest test-mode mail of this purpose about the authorization, as the prescriber receives it. */
export function mailedLink(
  testApp: TestApp,
  accountId: string,
  id: string,
  purpose: string,
): Promise<string> {
  const outbox = new MailOutboxRepository(testApp.db, new SecretBox(testApp.config.encryption!));
  return eventually(async () => {
    const { messages } = await outbox.list(accountId, { livemode: false, limit: 50 });
    const mail = messages.find((message) => message.objectId === id && message.purpose === purpose);
    return mail && /https:\/\/\S+/.exec(mail.text)?.[0];
  });
}

/**
 * What a browser without JavaScript does: open the page, then send its form with the page's cookie and
 * token. `headers` go with both requests (an X-Forwarded-For names where the browser is).
 */
export async function submitLinkPage(
  testApp: TestApp,
  link: string,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const page = await testApp.http().get(pathOf(link)).set(headers);
  const cookie = cookiesFrom(page.headers['set-cookie']);
  return testApp
    .http()
    .post(pathOf(link))
    .set(headers)
    .set('Cookie', cookie)
    .type('form')
    .send({ ...hiddenFieldsOf(page.text), ...fields });
}

/**
 * An authorization of AMADOU as the API starts one, on a clock of seconds rather than days: the period
 * is an account setting in whole days, so the workflow is started here with the clock as its input.
 * `withdrawn`: the row the API would have written is left out, as after a start it could not confirm.
 */
export async function startAuthorizationWithClock(
  testApp: TestApp,
  accountId: string,
  clock: AuthorizationClock & { withdrawn?: boolean },
): Promise<string> {
  const { authorization, start } = await pendingAuthorization(testApp, accountId, clock);
  await testApp.temporalClient.workflow.start(PROVIDER_AUTHORIZATION_WORKFLOW, start);
  return authorization.id;
}

/**
 * An authorization of AMADOU whose revocation reaches its workflow with its start, in its first task
 * (update-with-start): what a revocation sent at once meets when the worker is busy. The update's answer.
 */
export async function startAuthorizationRevokedAtOnce(
  testApp: TestApp,
  accountId: string,
  clock: AuthorizationClock,
): Promise<ProviderAuthorization> {
  const { authorization, start } = await pendingAuthorization(testApp, accountId, clock);
  return testApp.temporalClient.workflow.executeUpdateWithStart(revokeAuthorizationUpdate, {
    args: [
      addressTo(authorization.id, {
        actor: { type: 'api_key', id: 'key_clock_test' },
        requestId: 'req_revoke_at_once',
      }),
    ],
    startWorkflowOperation: new WithStartWorkflowOperation(PROVIDER_AUTHORIZATION_WORKFLOW, {
      ...start,
      workflowIdConflictPolicy: 'FAIL',
    }),
  });
}

async function pendingAuthorization(
  testApp: TestApp,
  accountId: string,
  { withdrawn = false, ...clock }: AuthorizationClock & { withdrawn?: boolean },
) {
  const now = new Date();
  const authorization: ProviderAuthorization = {
    id: newId('providerAuthorization'),
    object: 'provider_authorization',
    ...AMADOU,
    email: 'amadou@clinic.example',
    phone: null,
    practice: null,
    status: 'pending',
    link_expires_at: new Date(now.getTime() + clock.signingLinkTtlMs).toISOString(),
    signed_at: null,
    expires_at: null,
    revoked_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  if (!withdrawn) {
    const inserted = await new ProviderAuthorizationsRepository(testApp.db).insertPending(
      { accountId, livemode: false },
      authorization,
      { periodDays: 1, renewableFrom: now },
      null,
    );
    if (!inserted.created) throw new Error(`AMADOU already has authorization ${inserted.duplicate.id} here`);
  }
  const input: ProviderAuthorizationInput = {
    accountId,
    livemode: false,
    authorization,
    clock,
    actor: { type: 'api_key', id: 'key_clock_test' },
    requestId: 'req_clock_test',
  };
  return {
    authorization,
    start: { workflowId: authorization.id, taskQueue: testApp.config.temporal.taskQueue, args: [input] },
  };
}
