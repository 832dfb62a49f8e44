import { ConsoleBrowser } from '../support/console-session';
import { consoleBrowserWithRoles, getPage, postForm } from '../support/console-admin';
import { bearer, eventually, startTestApp, TestAccount, TestApp } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';
import { TestWorker } from '../support/workers';

const SECRET = 'whsec_console_0123456789';

describe('the Webhooks page of the console', () => {
  let testApp: TestApp;
  let worker: TestWorker;
  let receiver: TestReceiver;
  let account: TestAccount;
  let admin: ConsoleBrowser;

  beforeAll(async () => {
    testApp = await startTestApp();
    worker = await testApp.startWorker();
    receiver = await new TestReceiver(SECRET).start();
    account = await testApp.createAccount('Clinic Webhooks');
    admin = await consoleBrowserWithRoles(testApp, account.accountId, ['admin']);
  });
  afterAll(async () => {
    await receiver.stop();
    await worker.stop();
    await testApp.close();
  });

  const valid = () => ({
    name: 'Pharmacy system',
    url: receiver.url,
    secret: SECRET,
    events: ['prior_authorization.updated', 'patient_enrollment.updated'],
  });

  /** Adds an endpoint through the form and returns its id, from the page the form leads to. */
  async function addEndpoint(fields: Record<string, string | string[]> = valid()): Promise<string> {
    const answer = await postForm(testApp, admin, '/console/webhooks', fields);
    expect(answer.status).toBe(303);
    const id = /^\/console\/webhooks\/([^?]+)\?done=created$/.exec(answer.headers.location!)![1]!;
    receiver.endpointIds.add(id);
    return id;
  }

  const statusOf = async (id: string) =>
    (await getPage(testApp, admin, `/console/api/webhooks/${id}`)).body.data as {
      status: string;
      status_reason: string | null;
    };

  it('adds an inactive endpoint and lists it with its events and status', async () => {
    const id = await addEndpoint();
    const endpointPage = await getPage(testApp, admin, `/console/webhooks/${id}?done=created`);
    expect(endpointPage.text).toContain('<h1>Webhook endpoint: Pharmacy system</h1>');
    expect(endpointPage.text).toContain('It is inactive until you turn it on.');
    const list = await getPage(testApp, admin, '/console/webhooks');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`<a href="/console/webhooks/${id}">Pharmacy system</a>`);
    expect(list.text).toContain('Prior Authorization Updated, Patient Enrollment Updated');
    expect(list.text).toContain('<span class="badge badge-bad">inactive</span>');
    expect(list.text).not.toContain(SECRET);
  });

  it('turns an endpoint on, and its JSON status goes from activating to active', async () => {
    const id = await addEndpoint();
    const turnedOn = await postForm(testApp, admin, `/console/webhooks/${id}/turn-on`);
    expect(turnedOn.status).toBe(303);
    const page = await getPage(testApp, admin, turnedOn.headers.location!);
    expect(page.text).toContain('Activation started');
    expect(page.text).toContain(`data-refresh-url="/console/api/webhooks/${id}"`);
    expect(page.text).toContain('data-refresh-until="active inactive"');
    await eventually(async () => (await statusOf(id)).status === 'active');

    const turnedOff = await postForm(testApp, admin, `/console/webhooks/${id}/turn-off`);
    expect(turnedOff.status).toBe(303);
    expect((await statusOf(id)).status).toBe('inactive');
  });

  it("shows a test event's delivery in the log with the receiver's response code, and sends it again on request", async () => {
    const id = await addEndpoint();
    const sent = await postForm(testApp, admin, `/console/webhooks/${id}/test`);
    expect(sent.headers.location).toBe(`/console/webhooks/${id}?done=test_sent`);
    const log = await eventually(async () => {
      const page = await getPage(testApp, admin, `/console/webhooks/${id}`);
      return page.text.includes('<span class="badge badge-ok">succeeded</span>') ? page.text : undefined;
    });
    expect(log).toMatch(/<td>webhook\.test[\s\S]*?<td>1<\/td>\s*<td>200<\/td>/);

    receiver.script.push(500, 500, 500, 500, 500, 500, 500, 500);
    await postForm(testApp, admin, `/console/webhooks/${id}/test`);
    const deliveryId = await eventually(async () => {
      const { body } = await testApp
        .http()
        .get(`/webhooks/${id}/deliveries`)
        .set(bearer(account.keys.provider));
      const failing = body.data.data[0];
      return failing.attempts.length > 0 ? failing.id : undefined;
    });
    const failingPage = await getPage(testApp, admin, `/console/webhooks/${id}`);
    expect(failingPage.text).toContain(`action="/console/webhooks/${id}/deliveries/${deliveryId}/retry"`);
    expect(failingPage.text).toMatch(/<td>500<\/td>\s*<td><time datetime=/);

    receiver.script.length = 0;
    const retried = await postForm(testApp, admin, `/console/webhooks/${id}/deliveries/${deliveryId}/retry`);
    expect(retried.headers.location).toBe(`/console/webhooks/${id}?done=retried`);
    await eventually(async () => {
      const { body } = await testApp
        .http()
        .get(`/webhooks/${id}/deliveries`)
        .set(bearer(account.keys.provider));
      return body.data.data.some(
        (delivery: { retry_of: string | null; status: string }) =>
          delivery.retry_of === deliveryId && delivery.status === 'succeeded',
      );
    });
  });

  it('pages the delivery log 20 at a time, with links to older deliveries and back', async () => {
    const id = await addEndpoint();
    for (let sent = 0; sent < 21; sent += 1) await postForm(testApp, admin, `/console/webhooks/${id}/test`);
    const newest = await getPage(testApp, admin, `/console/webhooks/${id}`);
    const rows = (text: string) => text.match(/<td>webhook\.test/g)?.length ?? 0;
    expect(rows(newest.text)).toBe(20);
    const older = /<a href="([^"]+)" rel="next">Older deliveries<\/a>/.exec(newest.text)![1]!;
    const oldest = await getPage(testApp, admin, older);
    expect(rows(oldest.text)).toBe(1);
    expect(oldest.text).toContain(`<a href="/console/webhooks/${id}" rel="prev">Newest deliveries</a>`);
    expect(oldest.text).not.toContain('Older deliveries');
  });

  it('edits name, URL and events, keeping the secret when its field is left empty', async () => {
    const id = await addEndpoint();
    const saved = await postForm(testApp, admin, `/console/webhooks/${id}`, {
      name: 'Renamed system',
      url: `${receiver.url}/v2`,
      secret: '',
      events: 'benefit_verification.updated',
    });
    expect(saved.status).toBe(303);
    const { body } = await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider));
    expect(body.data).toMatchObject({
      name: 'Renamed system',
      url: `${receiver.url}/v2`,
      events: ['benefit_verification.updated'],
      secret_hint: '…6789',
    });
  });

  it('adds an endpoint with thin notifications, shows it, and makes it full again when the box is cleared', async () => {
    const id = await addEndpoint({ ...valid(), thin: 'true' });
    const thinOf = async () =>
      (await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider))).body.data.thin;
    expect(await thinOf()).toBe(true);
    const page = await getPage(testApp, admin, `/console/webhooks/${id}`);
    expect(page.text).toMatch(/<dt>Notifications<\/dt>\s*<dd>only the case id, object, status and livemode/);
    expect(page.text).toMatch(/name="thin" type="checkbox" value="true" checked/);

    const { thin: _thin, ...withoutThin } = { ...valid(), thin: 'true', secret: '' };
    await postForm(testApp, admin, `/console/webhooks/${id}`, withoutThin);
    expect(await thinOf()).toBe(false);
  });

  it.each([
    [
      'a URL that is not http(s)',
      { url: 'ftp://files.example/hooks' },
      'url: must be an absolute http or https URL',
    ],
    [
      'a secret under 16 characters',
      { secret: 'short-secret' },
      'secret: must be longer than or equal to 16 characters',
    ],
  ])(
    "re-renders the form with the API's message and 400 for %s, keeping the input",
    async (_case, override, message) => {
      const answer = await postForm(testApp, admin, '/console/webhooks', {
        ...valid(),
        name: 'Kept name',
        ...override,
      });
      expect(answer.status).toBe(400);
      expect(answer.text).toContain(message);
      expect(answer.text).toContain('value="Kept name"');
      expect(answer.text).not.toContain('short-secret');
    },
  );

  it("re-renders the endpoint page with the API's message and 400 when an edit is invalid", async () => {
    const id = await addEndpoint();
    const answer = await postForm(testApp, admin, `/console/webhooks/${id}`, {
      ...valid(),
      name: 'Edited name',
      url: 'not a url',
    });
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('url: must be an absolute http or https URL');
    expect(answer.text).toContain('value="Edited name"');
    const { body } = await testApp.http().get(`/webhooks/${id}`).set(bearer(account.keys.provider));
    expect(body.data.name).toBe('Pharmacy system');
  });

  it('leaves an endpoint at a private address inactive, with the SSRF policy as the reason', async () => {
    const id = await addEndpoint({ ...valid(), url: 'http://169.254.169.254/latest/meta-data' });
    await postForm(testApp, admin, `/console/webhooks/${id}/turn-on`);
    const endpoint = await eventually(async () => {
      const current = await statusOf(id);
      return current.status === 'inactive' ? current : undefined;
    });
    expect(endpoint.status_reason).toMatch(/169\.254\.169\.254 is not a public unicast address/);
    const page = await getPage(testApp, admin, `/console/webhooks/${id}`);
    expect(page.text).toContain('169.254.169.254 is not a public unicast address');
  });

  it('deletes an endpoint, whose page is then not found', async () => {
    const id = await addEndpoint();
    const deleted = await postForm(testApp, admin, `/console/webhooks/${id}/delete`);
    expect(deleted.headers.location).toBe('/console/webhooks?done=deleted');
    const page = await getPage(testApp, admin, `/console/webhooks/${id}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('No webhook endpoint with this id exists in your account.');
    const json = await getPage(testApp, admin, `/console/api/webhooks/${id}`);
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('not_found');
  });

  it('records endpoint changes and delivery retries in the audit trail with the person as the actor', async () => {
    const id = await addEndpoint();
    await postForm(testApp, admin, `/console/webhooks/${id}/test`);
    const deliveryId = await eventually(async () => {
      const { body } = await testApp
        .http()
        .get(`/webhooks/${id}/deliveries`)
        .set(bearer(account.keys.provider));
      return body.data.data[0]?.id as string | undefined;
    });
    await postForm(testApp, admin, `/console/webhooks/${id}/deliveries/${deliveryId}/retry`);
    await postForm(testApp, admin, `/console/webhooks/${id}/turn-off`);
    await postForm(testApp, admin, `/console/webhooks/${id}/delete`);
    const trail = await testApp.http().get(`/audit-events?target_id=${id}`).set(bearer(account.keys.admin));
    const events = trail.body.data.data as Array<{ action: string; actor: { type: string } }>;
    expect(events.map((event) => event.action).sort()).toEqual([
      'webhook_delivery.retried',
      'webhook_endpoint.created',
      'webhook_endpoint.deleted',
      'webhook_endpoint.updated',
    ]);
    expect(new Set(events.map((event) => event.actor.type))).toEqual(new Set(['user']));
  });

  it('refuses a form without its CSRF token', async () => {
    const answer = await testApp
      .http()
      .post('/console/webhooks')
      .set('Cookie', admin.cookie)
      .type('form')
      .send(valid());
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('This form is out of date or came from another site.');
  });

  it('shows a provider the 403 page', async () => {
    const provider = await consoleBrowserWithRoles(testApp, account.accountId, ['provider']);
    const page = await getPage(testApp, provider, '/console/webhooks');
    expect(page.status).toBe(403);
    expect(page.text).toContain('<h1>Not allowed</h1>');
  });
});
