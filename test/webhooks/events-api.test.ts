import { DAY_MS } from '../../domain/durations';
import { catchUp } from '../../examples/events-catch-up';
import { newId } from '../../domain/ids';
import type { CaseEventType } from '../../domain/webhooks/event-types';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import type { CreatePriorAuthorizationDto } from '../../src/cases/types/prior-authorization/prior-authorization.dto';
import { PRIOR_AUTHORIZATION } from '../../src/cases/types/prior-authorization/prior-authorization.case-type';
import type { JsonObject } from '../support/case-journeys';
import { priorAuthorizationRequest, syntheticPatient } from '../support/case-requests';
import { bearer, startTestApp, TestAccount, TestApp } from '../support/test-app';

const EVENT_PATIENT = { first_name: 'Eventa', last_name: 'Listwell' };
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

describe('the events API', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());

  /** A case event as a case workflow publishes it; no endpoint is needed for it to be recorded. */
  async function publish(
    account: TestAccount,
    options: { type?: CaseEventType; createdAt?: string; livemode?: boolean } = {},
  ) {
    const id = newId('event');
    const livemode = options.livemode ?? false;
    const { case: record } = PRIOR_AUTHORIZATION.create.input(
      priorAuthorizationRequest({
        patient: syntheticPatient(EVENT_PATIENT),
      }) as unknown as CreatePriorAuthorizationDto,
      {
        caseId: newId('priorAuthorization'),
        accountId: account.accountId,
        documents: [],
        now: new Date(),
        settings: testApp.config.cases,
        livemode,
      },
    );
    const data = { ...record, sequence: 1 };
    await testApp.app.get(WebhookPublisher).publish({
      eventId: id,
      accountId: account.accountId,
      type: options.type ?? 'prior_authorization.updated',
      data,
      createdAt: options.createdAt ?? new Date().toISOString(),
    });
    return { id, data };
  }

  const list = (key: string, query: Record<string, string | number> = {}) =>
    testApp.http().get('/events').query(query).set(bearer(key));
  const listedIds = async (key: string, query: Record<string, string | number> = {}) =>
    ((await list(key, query)).body.data.data as JsonObject[]).map((event) => event.id as string);
  const fieldsRefused = (body: JsonObject) =>
    (body.error.details as Array<{ field: string }>).map((detail) => detail.field);

  it('lists the account’s events newest first, each with the data its notification carried', async () => {
    const account = await testApp.createAccount();
    const first = await publish(account, { createdAt: daysAgo(2) });
    const second = await publish(account, { createdAt: daysAgo(1) });

    const response = await list(account.keys.provider);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      object: 'list',
      data: [
        {
          id: second.id,
          object: 'event',
          type: 'prior_authorization.updated',
          title: 'Prior Authorization Updated',
          description: 'A prior authorization has been updated.',
          created_at: expect.any(String),
          livemode: false,
          data: second.data,
        },
        expect.objectContaining({ id: first.id, data: first.data }),
      ],
      has_more: false,
      next_cursor: null,
    });
  });

  it('returns one event by its id', async () => {
    const account = await testApp.createAccount();
    const { id, data } = await publish(account);

    const response = await testApp.http().get(`/events/${id}`).set(bearer(account.keys.provider));
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id, object: 'event', livemode: false, data });
  });

  it('pages through every event once with next_cursor until has_more is false', async () => {
    const account = await testApp.createAccount();
    const published: string[] = [];
    for (let day = 5; day >= 1; day--)
      published.push((await publish(account, { createdAt: daysAgo(day) })).id);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = (await list(account.keys.provider, { limit: 2, ...(cursor && { cursor }) })).body.data;
      seen.push(...(page.data as JsonObject[]).map((event) => event.id as string));
      cursor = page.has_more ? (page.next_cursor as string) : undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual([...published].reverse());
    expect(pages).toBe(3);
  });

  it("shows only the caller's own events, whatever position a cursor names", async () => {
    const theirs = await testApp.createAccount();
    const ours = await testApp.createAccount();
    await publish(theirs, { createdAt: daysAgo(2) });
    await publish(theirs, { createdAt: daysAgo(1) });
    const ourEvent = await publish(ours, { createdAt: daysAgo(3) });
    const { next_cursor: theirCursor } = (await list(theirs.keys.provider, { limit: 1 })).body.data;

    expect(await listedIds(ours.keys.provider, { cursor: theirCursor as string })).toEqual([ourEvent.id]);
  });

  it('filters by type, given by machine name or by title', async () => {
    const account = await testApp.createAccount();
    const overdue = await publish(account, { type: 'prior_authorization.overdue' });
    await publish(account, { type: 'prior_authorization.updated' });

    expect(await listedIds(account.keys.provider, { type: 'prior_authorization.overdue' })).toEqual([
      overdue.id,
    ]);
    expect(await listedIds(account.keys.provider, { type: 'Prior Authorization Overdue' })).toEqual([
      overdue.id,
    ]);
  });

  it('filters by creation time, both bounds included', async () => {
    const account = await testApp.createAccount();
    const times = [daysAgo(4), daysAgo(3), daysAgo(2), daysAgo(1)];
    const events = [];
    for (const createdAt of times) events.push(await publish(account, { createdAt }));

    expect(
      await listedIds(account.keys.provider, { created_after: times[1]!, created_before: times[2]! }),
    ).toEqual([events[2]!.id, events[1]!.id]);
  });

  it.each([
    ['an unknown type', { type: 'payment.succeeded' }, 'type'],
    ['a created_after that is not a date', { created_after: 'yesterday' }, 'created_after'],
    ['a created_before that is not a date', { created_before: '2026-13-45' }, 'created_before'],
    ['a limit over 100', { limit: 101 }, 'limit'],
  ])('refuses %s with 400 naming the field', async (_case, query, field) => {
    const account = await testApp.createAccount();
    const response = await list(account.keys.provider, query);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('validation_error');
    expect(fieldsRefused(response.body)).toContain(field);
  });

  it('shows no event older than 30 days, in the list or by id', async () => {
    const account = await testApp.createAccount();
    const old = await publish(account, { createdAt: daysAgo(31) });
    const recent = await publish(account, { createdAt: daysAgo(29) });

    expect(await listedIds(account.keys.provider)).toEqual([recent.id]);
    const response = await testApp.http().get(`/events/${old.id}`).set(bearer(account.keys.provider));
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  });

  it('never shows another account’s events', async () => {
    const owner = await testApp.createAccount();
    const other = await testApp.createAccount();
    const { id } = await publish(owner);

    expect(await listedIds(other.keys.provider)).toEqual([]);
    expect((await testApp.http().get(`/events/${id}`).set(bearer(other.keys.provider))).status).toBe(404);
  });

  it('shows each mode only its own events', async () => {
    const account = await testApp.createAccount();
    const liveKeys = await testApp.createLiveKeys(account.accountId);
    const testEvent = await publish(account);
    const liveEvent = await publish(account, { livemode: true });

    expect(await listedIds(account.keys.provider)).toEqual([testEvent.id]);
    expect(await listedIds(liveKeys.provider)).toEqual([liveEvent.id]);
    const crossed = await testApp.http().get(`/events/${liveEvent.id}`).set(bearer(account.keys.provider));
    expect(crossed.status).toBe(404);
    const own = await testApp.http().get(`/events/${liveEvent.id}`).set(bearer(liveKeys.provider));
    expect(own.body.data).toMatchObject({ id: liveEvent.id, livemode: true });
  });

  it('answers 404 for an event id that does not exist', async () => {
    const account = await testApp.createAccount();
    const response = await testApp
      .http()
      .get(`/events/${newId('event')}`)
      .set(bearer(account.keys.provider));
    expect(response.status).toBe(404);
  });

  it('is the provider’s: a reviewer key is refused', async () => {
    const account = await testApp.createAccount();
    expect((await list(account.keys.reviewer)).status).toBe(403);
  });

  it('lets the documented catch-up loop process every missed event once, oldest first, across pages', async () => {
    const account = await testApp.createAccount();
    const lastSeen = await publish(account, { createdAt: daysAgo(6) });
    const missed = [];
    for (let day = 5; day >= 1; day--) missed.push(await publish(account, { createdAt: daysAgo(day) }));
    const alreadyReceived = missed[2]!;
    await testApp.app.listen(0, '127.0.0.1');
    const state = {
      since: (await testApp.http().get(`/events/${lastSeen.id}`).set(bearer(account.keys.provider))).body.data
        .created_at as string,
      seen: new Set([lastSeen.id, alreadyReceived.id]),
    };

    const processed: string[] = [];
    const count = await catchUp({
      apiUrl: await testApp.app.getUrl(),
      apiKey: account.keys.provider,
      state,
      pageSize: 2,
      onEvent: async (event) => {
        processed.push(event.id);
      },
    });
    expect(processed).toEqual(missed.filter((event) => event !== alreadyReceived).map((event) => event.id));
    expect(count).toBe(4);
    expect(
      await catchUp({
        apiUrl: await testApp.app.getUrl(),
        apiKey: account.keys.provider,
        state,
        onEvent: async () => undefined,
      }),
    ).toBe(0);
  });

  it('lets the catch-up loop find an event stored after newer ones were processed', async () => {
    const account = await testApp.createAccount();
    if (!testApp.app.getHttpServer().listening) await testApp.app.listen(0, '127.0.0.1');
    const newest = await publish(account, { createdAt: daysAgo(1) });
    const state = { since: daysAgo(2), seen: new Set<string>() };
    const apiUrl = await testApp.app.getUrl();
    const processed: string[] = [];
    const record = async (event: { id: string }) => {
      processed.push(event.id);
    };
    await catchUp({ apiUrl, apiKey: account.keys.provider, state, onEvent: record });
    // Its case changed ten minutes before the newest event, but its publish activity wrote it only now.
    const late = await publish(account, {
      createdAt: new Date(Date.parse(state.since) - 10 * 60_000).toISOString(),
    });

    await catchUp({ apiUrl, apiKey: account.keys.provider, state, onEvent: record });
    expect(processed).toEqual([newest.id, late.id]);
  });

  it('records every list and read in the audit trail, by event id and without PHI', async () => {
    const account = await testApp.createAccount();
    const { id } = await publish(account);
    await list(account.keys.provider, { type: 'prior_authorization.updated' });
    await testApp.http().get(`/events/${id}`).set(bearer(account.keys.provider));

    const trail = (await testApp.http().get('/audit-events').set(bearer(account.keys.admin))).body.data
      .data as JsonObject[];
    expect(trail.map(({ action, target }) => ({ action, target }))).toEqual([
      { action: 'event.read', target: { object: 'event', id } },
      { action: 'event.listed', target: { object: 'event', id: null } },
    ]);
    expect(trail[1]!.details).toEqual({ filters: ['type'], result_ids: [id] });
    expect(JSON.stringify(trail)).not.toMatch(new RegExp(Object.values(EVENT_PATIENT).join('|')));
  });
});
