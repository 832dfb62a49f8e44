import { ConsoleBrowser } from '../support/console-session';
import { consoleBrowserWithRoles, getPage, postForm } from '../support/console-admin';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

describe('the API keys page of the console', () => {
  let testApp: TestApp;
  let account: TestAccount;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp();
    account = await testApp.createAccount('Clinic Keys');
    admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
  });
  afterAll(() => testApp.close());

  const secretOn = (page: string) => /id="api-key-secret">([^<]+)</.exec(page)?.[1];
  const createKey = (fields: Record<string, string | string[]>) =>
    postForm(testApp, admin, '/console/api-keys', fields);

  it("lists the account's keys with their roles, hint, last use and status", async () => {
    const page = await getPage(testApp, admin, '/console/api-keys');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>API keys</h1>');
    expect(page.text).toContain('<th scope="col">Last used</th>');
    expect(page.text).toMatch(/<td>reviewer<\/td>[\s\S]*?<td>never<\/td>/);
    expect(page.text).toContain('<span class="badge badge-ok">active</span>');
    for (const secret of Object.values(account.keys)) expect(page.text).not.toContain(secret);
  });

  it('shows when a key was last used', async () => {
    await testApp.db.query(
      "UPDATE api_keys SET last_used_at = '2026-11-20T08:15:00Z' WHERE account_id = $1 AND label = 'provider'",
      [account.accountId],
    );
    const page = await getPage(testApp, admin, '/console/api-keys');
    expect(page.text).toMatch(/<td>provider<\/td>[\s\S]*?2026-11-20 08:15 UTC<\/time>/);
  });

  it('shows a new key once, with a copy button, and never again on the list', async () => {
    const answer = await createKey({ label: 'Pharmacy integration', roles: ['provider', 'reviewer'] });
    expect(answer.status).toBe(201);
    const secret = secretOn(answer.text)!;
    expect(secret).toBeDefined();
    expect(answer.text).toContain('data-copy-from="api-key-secret"');
    expect(answer.text).toContain('it will not be shown again');
    expect(answer.headers['cache-control']).toBe('no-store');

    const works = await testApp.http().get('/webhooks').set(bearer(secret));
    expect(works.status).toBe(200);
    const list = await getPage(testApp, admin, '/console/api-keys');
    expect(list.text).toContain('Pharmacy integration');
    expect(list.text).toContain('provider, reviewer');
    expect(list.text).not.toContain(secret);
  });

  it('revokes a key so that the API refuses it with 401 at once', async () => {
    const secret = secretOn((await createKey({ label: 'Short-lived', roles: 'provider' })).text)!;
    expect((await testApp.http().get('/webhooks').set(bearer(secret))).status).toBe(200);
    const { body } = await testApp.http().get('/api-keys').set(bearer(account.keys.admin));
    const key = body.data.data.find((candidate: { label: string }) => candidate.label === 'Short-lived');

    const revoked = await postForm(testApp, admin, `/console/api-keys/${key.id}/revoke`);
    expect(revoked.status).toBe(303);
    expect(revoked.headers.location).toBe('/console/api-keys?done=revoked');
    expect((await testApp.http().get('/webhooks').set(bearer(secret))).status).toBe(401);
    const list = await getPage(testApp, admin, revoked.headers.location!);
    expect(list.text).toContain('The key was revoked.');
    expect(list.text).toContain('<span class="badge badge-bad">revoked</span>');
  });

  it('records key creation and revocation in the audit trail with the person as the actor', async () => {
    const secret = secretOn((await createKey({ label: 'Audited', roles: 'admin' })).text)!;
    const { body } = await testApp.http().get('/api-keys').set(bearer(secret));
    const key = body.data.data.find((candidate: { label: string }) => candidate.label === 'Audited');
    await postForm(testApp, admin, `/console/api-keys/${key.id}/revoke`);
    const trail = await testApp
      .http()
      .get(`/audit-events?target_id=${key.id}`)
      .set(bearer(account.keys.admin));
    expect(
      trail.body.data.data.map((event: { action: string; actor: { type: string } }) => [
        event.action,
        event.actor.type,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['api_key.created', 'user'],
        ['api_key.revoked', 'user'],
      ]),
    );
  });

  it("re-renders the form with the API's message and 400 when no role is chosen, keeping the label", async () => {
    const answer = await createKey({ label: 'No roles here' });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('roles: must contain at least 1 elements');
    expect(answer.text).toContain('value="No roles here"');
  });

  it('refuses the platform operator role like the API does', async () => {
    const answer = await createKey({ label: 'Sneaky', roles: ['operator'] });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain(
      'the platform-wide operator role is granted only by the platform admin CLI',
    );
  });

  it('refuses a form without its CSRF token', async () => {
    const answer = await testApp
      .http()
      .post('/console/api-keys')
      .set('Cookie', admin.cookie)
      .type('form')
      .send({ label: 'Forged', roles: 'admin' });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('This form is out of date or came from another site.');
  });

  it('shows a provider the 403 page', async () => {
    const provider = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);
    const page = await getPage(testApp, provider, '/console/api-keys');
    expect(page.status).toBe(403);
    expect(page.text).toContain('<h1>Not allowed</h1>');
  });

  it('sends a visitor without a session to sign in', async () => {
    const page = await testApp.http().get('/console/api-keys');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/console/sign-in?next=%2Fconsole%2Fapi-keys');
  });
});
