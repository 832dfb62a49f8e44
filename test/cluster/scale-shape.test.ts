import { JsonObject } from '../support/case-journeys';
import {
  benefitVerificationRequest,
  patientEnrollmentRequest,
  priorAuthorizationRequest,
  syntheticPatient,
} from '../support/case-requests';
import { postgresBinDir } from '../../infrastructure/storage/postgres-server';
import type { TemporalBinaries } from '../../infrastructure/temporal/production-server';
import { Cluster, startCluster, temporalClusterBinaries } from '../support/cluster';
import { JsonBody, readJson } from '../support/processes';
import { eventually } from '../support/test-app';
import { TestReceiver } from '../support/webhook-receiver';

/**
 * Issue 12's scale test: every case type through two API processes and two workers on the production
 * Temporal server, while one worker dies by SIGKILL and the server restarts under the cases.
 */

const postgresBin = postgresBinDir();
if (!postgresBin && process.env.REQUIRE_CLUSTER === '1') {
  throw new Error('REQUIRE_CLUSTER=1, but no PostgreSQL binaries are installed under /usr/lib/postgresql');
}
const describeWithPostgres = postgresBin ? describe : describe.skip;
if (!postgresBin)
  test.todo('the scale shape on the production Temporal server (install PostgreSQL to run it; CI does)');
const LIVENESS_MS = 120_000;
const BINARY_BUILD_MS = 30 * 60_000;
jest.setTimeout(300_000);

interface CaseType {
  path: string;
  body: () => Record<string, unknown>;
  /** The journey each case of this type takes here, status by status. */
  journey: string[];
  /** The statuses this type notifies (PA and PE at every change, BV and CE once decided). */
  notifies: (status: string) => boolean;
}

const everyStatus = () => true;
const finalOnly = (status: string) => status === 'completed' || status === 'failed';

const PRIOR_AUTHORIZATION: CaseType = {
  path: '/prior-authorization',
  body: () => priorAuthorizationRequest(),
  journey: ['processing', 'awaiting_review', 'awaiting_outcome', 'completed'],
  notifies: everyStatus,
};
const BENEFIT_VERIFICATION: CaseType = {
  path: '/benefit-verification',
  body: () => benefitVerificationRequest(),
  journey: ['processing', 'completed'],
  notifies: finalOnly,
};
const CLINICAL_ELIGIBILITY: CaseType = {
  path: '/clinical-eligibility',
  body: () => ({
    patient: syntheticPatient(),
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    diagnoses: [{ code: 'E11.9' }],
  }),
  journey: ['processing', 'completed'],
  notifies: finalOnly,
};
const PATIENT_ENROLLMENT: CaseType = {
  path: '/patient-enrollment',
  body: () => patientEnrollmentRequest({ metadata: { patient_id: 'mrn-scale-enrollment' } }),
  journey: ['processing', 'awaiting_outcome', 'completed'],
  notifies: everyStatus,
};
const CASE_TYPES = [PRIOR_AUTHORIZATION, BENEFIT_VERIFICATION, CLINICAL_ELIGIBILITY, PATIENT_ENROLLMENT];
const EVENTS = [
  'prior_authorization.updated',
  'benefit_verification.updated',
  'clinical_eligibility.updated',
  'patient_enrollment.updated',
];

interface TrackedCase {
  id: string;
  type: CaseType;
  /** The API (0 or 1) that created it; decisions go through the other one. */
  createdThrough: 0 | 1;
}

describeWithPostgres('the scale shape: two APIs and two workers on the production Temporal server', () => {
  let cluster: Cluster | undefined;
  let receiver: TestReceiver;
  const cases: TrackedCase[] = [];
  let statusesAtDisruption: (string | undefined)[] = [];

  const call = async (api: 0 | 1, method: string, route: string, key: string, body?: unknown) => {
    const response = await fetch(`${cluster!.apiUrls[api]}${route}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: await readJson(response) };
  };
  const read = async (api: 0 | 1, route: string) =>
    (await call(api, 'GET', route, cluster!.keys.provider)).body;
  const explain = () => `\nCluster logs:\n${cluster?.logs() ?? '(not started)'}`;

  /** Fails with every process's logs when the cluster does not get there within the bound. */
  const within = async <T>(what: string, check: () => Promise<T | undefined>): Promise<T> => {
    try {
      return await eventually(check, LIVENESS_MS);
    } catch (error) {
      throw new Error(`${what}: ${(error as Error).message}${explain()}`);
    }
  };

  const create = async (type: CaseType, api: 0 | 1) => {
    const response = await call(api, 'POST', type.path, cluster!.keys.provider, type.body());
    if (response.status !== 201) {
      throw new Error(
        `POST ${type.path} answered ${response.status}: ${JSON.stringify(response.body.error)}`,
      );
    }
    const id = (response.body.data as JsonObject).id as string;
    cases.push({ id, type, createdThrough: api });
    return cases[cases.length - 1]!;
  };
  const statusOf = async (tracked: TrackedCase) =>
    (await read(tracked.createdThrough, `${tracked.type.path}/${tracked.id}`)).data?.status as
      string | undefined;
  const review = (tracked: TrackedCase) =>
    within(`review of ${tracked.id}`, async () => {
      const other = tracked.createdThrough === 0 ? 1 : 0;
      const answer = await call(
        other,
        'POST',
        `/prior-authorization/${tracked.id}/review`,
        cluster!.keys.reviewer,
        {
          decision: 'approve',
          reviewer: 'Dr. Reviewer',
        },
      );
      return answer.status === 200 ? answer : undefined;
    });

  let finalCases: Promise<Map<string, JsonObject>> | undefined;
  /** Every case once final, read through the API that created it. */
  const everyCaseFinal = () =>
    (finalCases ??= within('every case reaches its final status', async () => {
      const finals = new Map<string, JsonObject>();
      for (const tracked of cases) {
        const data = (await read(tracked.createdThrough, `${tracked.type.path}/${tracked.id}`))
          .data as JsonObject;
        if (data?.status !== tracked.type.journey.at(-1)) return undefined;
        finals.set(tracked.id, data);
      }
      return finals;
    }));

  let binaries: TemporalBinaries;
  // A machine without them builds the three binaries with Go once, which takes minutes, not seconds.
  beforeAll(async () => {
    binaries = await temporalClusterBinaries();
  }, BINARY_BUILD_MS);

  beforeAll(async () => {
    cluster = await startCluster(
      { binDir: postgresBin!, binaries },
      {
        PAYER_POLL_INTERVAL_MS: '500',
        WEBHOOK_RETRY_INITIAL_INTERVAL_MS: '200',
        WEBHOOK_RETRY_BACKOFF_COEFFICIENT: '2',
        WEBHOOK_RETRY_MAX_INTERVAL_MS: '2000',
        // The killed worker's cases go on with the other after a second, not Temporal's 10 s.
        WORKER_STICKY_QUEUE_TIMEOUT_MS: '1000',
      },
    );

    const secret = 'whsec_scale_shape_events_01';
    receiver = await new TestReceiver(secret).start();
    const endpoint = await call(0, 'POST', '/webhooks', cluster.keys.provider, {
      name: 'scale shape',
      url: receiver.url,
      secret,
      events: EVENTS,
    });
    const endpointId = endpoint.body.data.id as string;
    receiver.endpointIds.add(endpointId);
    await call(1, 'PATCH', `/webhooks/${endpointId}`, cluster.keys.provider, { active: true });
    await within('the webhook endpoint becomes active', async () =>
      (await read(0, `/webhooks/${endpointId}`)).data?.status === 'active' ? true : undefined,
    );

    // Prior authorizations first, so that some wait for a reviewer and some for the payer when the
    // disruption comes; the other types are created just before it, so they are mid-journey too.
    const priorAuthorizations: TrackedCase[] = [];
    for (let index = 0; index < 4; index++) {
      priorAuthorizations.push(await create(PRIOR_AUTHORIZATION, (index % 2) as 0 | 1));
    }
    await within('every prior authorization awaits review', async () =>
      (await Promise.all(priorAuthorizations.map(statusOf))).every((status) => status === 'awaiting_review')
        ? true
        : undefined,
    );
    for (const tracked of priorAuthorizations.slice(0, 2)) await review(tracked);
    let api: 0 | 1 = 0;
    for (const type of [BENEFIT_VERIFICATION, CLINICAL_ELIGIBILITY, PATIENT_ENROLLMENT]) {
      for (let copy = 0; copy < 2; copy++) {
        await create(type, api);
        api = api === 0 ? 1 : 0;
      }
    }

    statusesAtDisruption = await Promise.all(cases.map(statusOf));
    await cluster.killWorker(1, 'SIGKILL');
    await cluster.restartTemporal();
    await cluster.startWorker(1);
    for (const tracked of priorAuthorizations.slice(2)) await review(tracked);
  });

  afterAll(async () => {
    await receiver?.stop();
    await cluster?.stop();
  });

  it('disrupts the cluster while cases are on their way, some of them waiting for a reviewer', async () => {
    const unfinished = cases.filter(
      (tracked, index) => statusesAtDisruption[index] !== tracked.type.journey.at(-1),
    );
    expect(statusesAtDisruption).toContain('awaiting_review');
    expect(unfinished.length).toBeGreaterThanOrEqual(2);
  });

  it('brings every case of every type to its final status, through the journey of its type', async () => {
    const finals = await everyCaseFinal();
    expect(new Set(cases.map((tracked) => tracked.type))).toEqual(new Set(CASE_TYPES));
    for (const tracked of cases) {
      const history = (finals.get(tracked.id)!.status_history as JsonObject[]).map((change) => change.status);
      expect({ id: tracked.id, history }).toEqual({ id: tracked.id, history: tracked.type.journey });
    }
  });

  it('sends each case’s notified statuses once each, in order, none skipped or repeated', async () => {
    await everyCaseFinal();
    const expected = (tracked: TrackedCase) =>
      tracked.type.journey
        .map((status, index) => ({ sequence: index + 1, status }))
        .filter(({ status }) => tracked.type.notifies(status));
    const received = (tracked: TrackedCase) =>
      uniqueDeliveries(receiver)
        .filter((event) => event.data.id === tracked.id)
        .map((event) => ({ sequence: event.data.sequence, status: event.data.status }))
        .sort((a, b) => a.sequence - b.sequence);
    await within('every expected event arrives', async () =>
      cases.every((tracked) => received(tracked).length >= expected(tracked).length) ? true : undefined,
    );
    for (const tracked of cases) {
      expect({ id: tracked.id, events: received(tracked) }).toEqual({
        id: tracked.id,
        events: expected(tracked),
      });
    }
  });

  it('delivers a repeated event only with the same X-Webhook-Id and the same signed body', async () => {
    await everyCaseFinal();
    expect(receiver.requests.every((request) => request.verified)).toBe(true);
    const bodiesById = new Map<string, Set<string>>();
    for (const request of receiver.requests) {
      const id = request.headers['x-webhook-id'] as string;
      bodiesById.set(id, (bodiesById.get(id) ?? new Set()).add(request.rawBody.toString('utf8')));
      expect(JSON.parse(request.rawBody.toString('utf8')).id).toBe(id);
    }
    expect([...bodiesById.values()].filter((bodies) => bodies.size !== 1)).toEqual([]);
  });

  it('answers a read of each case identically through both APIs', async () => {
    await everyCaseFinal();
    for (const tracked of cases) {
      const route = `${tracked.type.path}/${tracked.id}`;
      expect(await read(1, route)).toEqual(await read(0, route));
    }
  });

  it('lists the same cases, with the same statuses, through both APIs', async () => {
    await everyCaseFinal();
    const listed = async (api: 0 | 1, type: CaseType) =>
      ((await read(api, `${type.path}?limit=100`)).data.data as JsonObject[]).map((item) => [
        item.id,
        item.status,
      ]);
    for (const type of CASE_TYPES) {
      const created = cases
        .filter((tracked) => tracked.type === type)
        .map((tracked) => [tracked.id, type.journey.at(-1)]);
      const lists = await within(`the ${type.path} lists settle`, async () => {
        const [first, second] = [await listed(0, type), await listed(1, type)];
        return sameEntries(first, created) && sameEntries(second, created) ? [first, second] : undefined;
      });
      expect(lists[1]).toEqual(lists[0]);
    }
  });

  it('holds one key’s rate limit across both APIs: the shared budget, then 429s', async () => {
    const limits = { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '5' };
    const limitedApis = await Promise.all([cluster!.startApi(limits), cluster!.startApi(limits)]);
    const key = cluster!.createKey('provider');
    const startedAt = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        fetch(`${limitedApis[index % 2]}/webhooks`, { headers: { Authorization: `Bearer ${key}` } }),
      ),
    );
    const elapsedSeconds = Math.ceil((Date.now() - startedAt) / 1000);
    const accepted = answers.filter((answer) => answer.status === 200).length;
    // The bucket refills one token a second: the budget is the burst plus what the time refilled.
    expect(accepted).toBeLessThanOrEqual(5 + elapsedSeconds);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length + accepted).toBe(answers.length);
    const refusal = await readJson(refused[0]!);
    expect(refusal).toEqual({
      status: 'error',
      error: expect.objectContaining({ code: 'rate_limited', request_id: expect.stringMatching(/^req_/) }),
      data: null,
    });
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

/** The documented receiver's view: one notification per X-Webhook-Id, however often it came. */
function uniqueDeliveries(receiver: TestReceiver): JsonBody[] {
  const byId = new Map<string, JsonBody>();
  for (const request of receiver.requests) {
    const id = request.headers['x-webhook-id'] as string;
    if (!byId.has(id)) byId.set(id, JSON.parse(request.rawBody.toString('utf8')) as JsonBody);
  }
  return [...byId.values()];
}

function sameEntries(listed: unknown[][], created: unknown[][]): boolean {
  const key = (entry: unknown[]) => entry.join(' ');
  return listed.length === created.length && created.every((entry) => listed.map(key).includes(key(entry)));
}
