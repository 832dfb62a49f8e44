import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { temporal as proto } from '@temporalio/proto';

import { evaluateClinicalEligibility } from '../domain/clinical/criteria-engine';
import { measureExtraction } from './extraction.bench-support';
import { Api, LocalStack, ProcessMemory, startLocalStack } from './local-stack';
import { ms, percentile, withConcurrency } from './support';

/** Concurrency of every creation phase, so the raw and HTTP rates compare like for like. */
const CONCURRENCY = 16;
const CREATE_RATE_CASES = 300;
/** Sizes of the bursts and of the open-case phases; an empty list skips the phase. */
const sizes = (variable: string, fallback: string) =>
  (process.env[variable] ?? fallback).split(',').filter(Boolean).map(Number);
const BURSTS = sizes('BENCH_BURSTS', '200,1000');
const OPEN_PRIOR_AUTHORIZATIONS = sizes('BENCH_OPEN_PAS', '1000,10000');

const patient = () => ({
  internal_id: `bench-${randomUUID().slice(0, 8)}`,
  first_name: 'Bench',
  last_name: 'Patient',
  gender: 'other',
  date_of_birth: '1970-01-01',
});
const provider = { npi: '1234567893', first_name: 'Bench', last_name: 'Provider' };
const insurance_content = {
  payer: 'Blue Horizon Health',
  member_id: 'BHH000000001',
  plan_type: 'commercial',
};
const bvRequest = () => ({
  patient: patient(),
  drugs: [{ name: 'Ozempic', quantity: 1 }],
  provider,
  insurance_content,
  mock_result: { status: 'completed' },
});
const paRequest = () => ({
  patient: patient(),
  diagnoses: [{ code: 'E11.9' }],
  prescription: { drug_name: 'Ozempic', quantity: 1 },
  provider,
  insurance_content,
});
const enrollmentRequest = () => ({
  programId: 'prog_01jnzn5t37ydrsw602nch4aqg1',
  patient: {
    first_name: 'Bench',
    last_name: 'Patient',
    date_of_birth: '1975-03-02',
    address: {
      street: '4 Example Road',
      city: 'Portland',
      state_province: 'OR',
      zip_postal_code: '97201',
      country: 'US',
    },
    email: 'bench@example.test',
    phone: '+1 503 555 0199',
    insurance_details: {
      data: { payer: 'Blue Horizon Health', membership_number: 'BHH555000111', rx_bin: '610014' },
    },
  },
  prescription: { drug_name: 'Ozempic 1 mg pen', dosage: '1 mg weekly' },
});
const CE_DRUGS = ['Ozempic', 'Wegovy', 'Humira', 'Nucala', 'Repatha'].map((name) => ({ name, quantity: 1 }));
const CE_NOTES =
  'BMI 31.2. A1c 8.1 %. On metformin for 8 months. LDL 130 mg/dL on atorvastatin since 2023. Eosinophils 350 cells/uL.';
const CE_DIAGNOSES = [
  { code: 'E11.9' },
  { description: 'hypertension' },
  { code: 'J45.50' },
  { code: 'M06.9' },
];
const ceEvidence = (today: string) =>
  Array.from({ length: 20 }, (_, index) => ({
    title: `Lab results ${index + 1}`,
    date_created: today,
    content: { labs: [{ name: 'A1c', value: 7 + index / 10, unit: '%' }], note: CE_NOTES },
  }));
const ceRequest = () => {
  const today = new Date().toISOString();
  return {
    patient: patient(),
    drugs: CE_DRUGS,
    diagnoses: CE_DIAGNOSES,
    visit_notes: [{ content: CE_NOTES, created_at: today }],
    evidence: ceEvidence(today),
  };
};

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * Against local mode (`npm start`'s processes, on free ports and a throwaway data folder), in one run:
 * creation capacity (raw engine starts, then HTTP creation, each on a drained system), bursts to one
 * webhook endpoint, reads with many cases open, the Temporal cost of each case type, and clinical
 * evaluation. Figures are printed; nothing is asserted.
 */
async function main(): Promise<void> {
  const stack = await startLocalStack();
  try {
    await create(stack.api, '/benefit-verification', bvRequest()); // warm-up
    console.log(`Case benchmark against local mode (concurrency ${CONCURRENCY})\n`);
    await creationRates(stack);
    const receiver = await WebhookReceiver.start();
    try {
      await subscribe(stack.api, receiver, ['benefit_verification.updated', 'clinical_eligibility.updated']);
      await idleWebhookLatency(stack, receiver);
      for (const size of BURSTS) await burst(stack, receiver, size);
      await engineCosts(stack, receiver);
      await caseWriteSizes(stack);
      await clinicalEligibility(stack.api, receiver);
      await clinicalTextExtraction();
    } finally {
      receiver.close();
    }
    await openPriorAuthorizations(stack);
  } finally {
    await stack.stop();
  }
}

/** CPU each process of the stack used between two snapshots, as a share of one core. */
function cpuShares(before: ProcessMemory[], after: ProcessMemory[], seconds: number): string {
  return after
    .map((entry) => {
      const used = entry.cpuSeconds - (before.find((earlier) => earlier.pid === entry.pid)?.cpuSeconds ?? 0);
      return `${entry.label} ${((used / seconds) * 100).toFixed(0)} %`;
    })
    .join(', ');
}

async function create(api: Api, route: string, body: unknown): Promise<string> {
  const response = await api(route, { method: 'POST', body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`${route} answered ${response.status}`);
  const created = (await response.json()) as { data?: { id: string }; clinical_elgibility_id?: string };
  return created.data?.id ?? created.clinical_elgibility_id!;
}

async function statusOf(api: Api, route: string, id: string): Promise<string> {
  const body = (await (await api(`${route}/${id}`)).json()) as { data: { status: string } };
  return body.data.status;
}

/** Counts matching workflows in visibility, which trails the engine by a moment. */
async function count(stack: LocalStack, query: string): Promise<number> {
  const response = await stack.temporal.workflowService.countWorkflowExecutions({
    namespace: stack.namespace,
    query,
  });
  return Number(response.count ?? 0);
}

/** Waits until nothing of the case type runs any more (or the deadline passes). */
async function drain(stack: LocalStack, caseType: string, deadlineMs = 600_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if ((await count(stack, `CaseType = '${caseType}' AND ExecutionStatus = 'Running'`)) === 0) return;
    await sleep(250);
  }
}

async function creationRates(stack: LocalStack): Promise<void> {
  const unpolledQueue = `bench-unpolled-${randomUUID()}`;
  const rawStarted = performance.now();
  await withConcurrency(
    Array.from({ length: CREATE_RATE_CASES }, () => bvRequest()),
    CONCURRENCY,
    async (body) =>
      void (await stack.temporal.workflow.start('benchNoOpWorkflow', {
        taskQueue: unpolledQueue,
        workflowId: `bench-raw-${randomUUID()}`,
        args: [{ request: body }],
      })),
  );
  const rawRate = CREATE_RATE_CASES / ((performance.now() - rawStarted) / 1000);

  const cpuBefore = stack.processMemory();
  const httpStarted = performance.now();
  await withConcurrency(
    Array.from({ length: CREATE_RATE_CASES }, () => bvRequest()),
    CONCURRENCY,
    async (body) => void (await create(stack.api, '/benefit-verification', body)),
  );
  const httpSeconds = (performance.now() - httpStarted) / 1000;
  const httpRate = CREATE_RATE_CASES / httpSeconds;
  const httpCpu = cpuShares(cpuBefore, stack.processMemory(), httpSeconds);
  await drain(stack, 'benefit_verification');
  console.log(
    [
      `Creation rate (${CREATE_RATE_CASES} each, ${CONCURRENCY} at a time, each phase on a drained system)`,
      `  raw workflow.start, no-op type, unpolled queue   ${rawRate.toFixed(1)} starts/s`,
      `  HTTP POST /benefit-verification (mock result)    ${httpRate.toFixed(1)} cases/s`,
      `  ratio HTTP / raw                                  ${(httpRate / rawRate).toFixed(2)}`,
      `  CPU during HTTP creation (% of one core)          ${httpCpu}`,
      '',
    ].join('\n'),
  );
}

/** A plain HTTP receiver that acknowledges at once and notes when each case's notifications arrive. */
class WebhookReceiver {
  /** Arrival times of every notification, by case id. */
  readonly arrivals = new Map<string, number[]>();
  /** Event creation time (from the notification) to arrival, per notification. */
  readonly eventLatencies: number[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const arrivedAt = performance.now();
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          created_at: string;
          data: { id: string };
        };
        receiver.eventLatencies.push(Date.now() - Date.parse(body.created_at));
        const seen = receiver.arrivals.get(body.data.id) ?? [];
        receiver.arrivals.set(body.data.id, [...seen, arrivedAt]);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  firstArrival(caseId: string): number | undefined {
    return this.arrivals.get(caseId)?.[0];
  }

  close(): void {
    this.server.close();
  }
}

async function subscribe(api: Api, receiver: WebhookReceiver, events: string[]): Promise<void> {
  const hook = (await (
    await api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({ name: 'bench', url: receiver.url, secret: 'bench-secret-0123456789', events }),
    })
  ).json()) as { data: { id: string } };
  await api(`/webhooks/${hook.data.id}`, { method: 'PATCH', body: JSON.stringify({ active: true }) });
  while ((await statusOf(api, '/webhooks', hook.data.id)) !== 'active') await sleep(50);
}

async function waitForArrivals(receiver: WebhookReceiver, ids: string[], deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline && ids.some((id) => receiver.firstArrival(id) === undefined)) await sleep(20);
}

async function idleWebhookLatency(stack: LocalStack, receiver: WebhookReceiver): Promise<void> {
  const before = receiver.eventLatencies.length;
  const endToEnd: number[] = [];
  for (let run = 0; run < 20; run += 1) {
    const startedAt = performance.now();
    const id = await create(stack.api, '/benefit-verification', bvRequest());
    await waitForArrivals(receiver, [id], 30_000);
    endToEnd.push((receiver.firstArrival(id) ?? Number.NaN) - startedAt);
  }
  const eventLatencies = receiver.eventLatencies.slice(before);
  console.log(
    [
      'Idle system, 20 sequential benefit verifications with one webhook endpoint',
      `  event created → webhook received   p50 ${ms(percentile(eventLatencies, 50))}   p99 ${ms(percentile(eventLatencies, 99))}`,
      `  POST → webhook received            p50 ${ms(percentile(endToEnd, 50))}   p99 ${ms(percentile(endToEnd, 99))}`,
      '',
    ].join('\n'),
  );
}

async function burst(stack: LocalStack, receiver: WebhookReceiver, size: number): Promise<void> {
  const created = new Map<string, number>();
  const getLatencies: number[] = [];
  let posting = true;
  // Reads of cases already created, two at a time, for as long as the burst is being posted.
  const readers = Array.from({ length: 2 }, async () => {
    while (posting) {
      const ids = [...created.keys()];
      if (ids.length === 0) {
        await sleep(10);
        continue;
      }
      const startedAt = performance.now();
      await stack.api(`/benefit-verification/${ids[Math.floor(Math.random() * ids.length)]}`);
      getLatencies.push(performance.now() - startedAt);
    }
  });
  const cpuBefore = stack.processMemory();
  const firstPost = performance.now();
  await withConcurrency(
    Array.from({ length: size }, () => bvRequest()),
    CONCURRENCY,
    async (body) => {
      const id = await create(stack.api, '/benefit-verification', body);
      created.set(id, performance.now());
    },
  );
  posting = false;
  await Promise.all(readers);
  const ids = [...created.keys()];
  await waitForArrivals(receiver, ids, 300_000);
  const arrived = ids.filter((id) => receiver.firstArrival(id) !== undefined);
  const lastArrival = Math.max(...arrived.map((id) => receiver.firstArrival(id)!));
  const toWebhook = arrived.map((id) => receiver.firstArrival(id)! - created.get(id)!);
  const cpuUse = cpuShares(cpuBefore, stack.processMemory(), (lastArrival - firstPost) / 1000);
  console.log(
    [
      `Burst of ${size} benefit verifications to one webhook endpoint (${CONCURRENCY} POSTs at a time)`,
      `  end to end (first POST → last webhook)   ${(arrived.length / ((lastArrival - firstPost) / 1000)).toFixed(1)} cases/s`,
      `  creation → webhook received              p50 ${ms(percentile(toWebhook, 50))}   p99 ${ms(percentile(toWebhook, 99))}`,
      `  GET during the burst (${getLatencies.length} reads)         p50 ${ms(percentile(getLatencies, 50))}   p99 ${ms(percentile(getLatencies, 99))}`,
      `  webhooks received                        ${arrived.length} of ${size}${arrived.length < size ? '  (MISSING after 5 min)' : ''}`,
      `  CPU during the burst (% of one core)     ${cpuUse}`,
      '',
    ].join('\n'),
  );
}

/** History length, state transitions and history bytes of one case of each type, as the engine counts them. */
async function engineCosts(stack: LocalStack, receiver: WebhookReceiver): Promise<void> {
  const { api } = stack;
  const bv = await create(api, '/benefit-verification', bvRequest());
  const pa = await create(api, '/prior-authorization', paRequest());
  while ((await statusOf(api, '/prior-authorization', pa)) !== 'awaiting_review') await sleep(50);
  await api(`/prior-authorization/${pa}/review`, {
    method: 'POST',
    body: JSON.stringify({ decision: 'approve', reviewer: 'Bench Reviewer' }),
  });
  const ce = await create(api, '/clinical-eligibility', ceRequest());
  const enrollment = await create(api, '/patient-enrollment', enrollmentRequest());
  await waitForArrivals(receiver, [bv, ce], 30_000);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && (await statusOf(api, '/prior-authorization', pa)) !== 'completed')
    await sleep(200);

  const deliveries = await stack.temporal.workflowService.listWorkflowExecutions({
    namespace: stack.namespace,
    query: `WorkflowType = 'webhookDeliveryWorkflow'`,
    pageSize: 1,
  });
  const sampled: Array<[string, string | undefined]> = [
    ['benefit verification (mock, completed)', bv],
    ['prior authorization (approve → completed)', pa],
    ['clinical eligibility (5 drugs)', ce],
    [`patient enrollment (${await statusOf(api, '/patient-enrollment', enrollment)})`, enrollment],
    ['webhook delivery workflow', deliveries.executions?.[0]?.execution?.workflowId ?? undefined],
  ];
  const lines = ['Temporal cost per case type (one case each)'];
  for (const [label, workflowId] of sampled) {
    if (!workflowId) {
      lines.push(`  ${label.padEnd(44)} none ran (deliveries made without a workflow)`);
      continue;
    }
    const { workflowExecutionInfo: info } = await stack.temporal.workflowService.describeWorkflowExecution({
      namespace: stack.namespace,
      execution: { workflowId },
    });
    lines.push(
      `  ${label.padEnd(44)} ${String(info!.historyLength).padStart(4)} events  ${String(info!.stateTransitionCount).padStart(4)} state transitions  ${(Number(info!.historySizeBytes) / 1024).toFixed(1).padStart(7)} KiB history`,
    );
  }
  console.log(`${lines.join('\n')}\n`);
}

/** A prior authorization near the size limit: ten visit notes of 100 000 characters (about 1 MB). */
const largePaRequest = () => ({
  ...paRequest(),
  visit_notes: Array.from({ length: 10 }, (_, index) => ({
    content: `Visit ${index + 1}. ${'A1c 8.1 %. On metformin for 8 months. '.repeat(2_600)}`.slice(
      0,
      100_000,
    ),
    created_at: new Date().toISOString(),
  })),
});

const memoBytes = (memo: proto.api.common.v1.IMemo) => proto.api.common.v1.Memo.encode(memo).finish().length;
const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * What a case writes at each status change, by case type: the memo upserts as stored (encrypted
 * payloads, read back from the case's history), and the input of one `publishEvent` (JSON, before
 * encryption), as it was (the whole case, request included) and as it is (the case without its
 * request, plus its id). The event input is computed from the final case, the same way the workflow
 * builds it; local activity inputs never enter history, so there is nothing to read back.
 */
async function caseWriteSizes(stack: LocalStack): Promise<void> {
  const { api } = stack;
  const pa = async (request: unknown) => {
    const id = await create(api, '/prior-authorization', request);
    while ((await statusOf(api, '/prior-authorization', id)) !== 'awaiting_review') await sleep(50);
    await api(`/prior-authorization/${id}/review`, {
      method: 'POST',
      body: JSON.stringify({ decision: 'approve', reviewer: 'Bench Reviewer' }),
    });
    return id;
  };
  // Each sample is measured once it reaches its last status (enrollments then wait on the program).
  const sampled: Array<[string, string, string]> = [
    ['benefit verification', await create(api, '/benefit-verification', bvRequest()), 'completed'],
    ['prior authorization', await pa(paRequest()), 'completed'],
    ['prior authorization, 1 MB of visit notes', await pa(largePaRequest()), 'completed'],
    ['clinical eligibility (5 drugs)', await create(api, '/clinical-eligibility', ceRequest()), 'completed'],
    ['patient enrollment', await create(api, '/patient-enrollment', enrollmentRequest()), 'awaiting_outcome'],
  ];
  const columns = (...cells: string[]) =>
    `  ${cells[0]!.padEnd(54)}${cells
      .slice(1)
      .map((cell, index) => cell.padStart([10, 12, 17, 19, 28][index]!))
      .join('')}`;
  const lines = [
    'Bytes a case writes per status change (memo as stored, encrypted; publishEvent input as JSON)',
    columns(
      'case type (final status)',
      'request',
      'start memo',
      'memo per change',
      'request rewritten',
      'event input before → after',
    ),
  ];
  for (const [label, id, last] of sampled) {
    const handle = stack.temporal.workflow.getHandle(id);
    const caseOf = async () => (await handle.describe()).memo as { case: CaseSummary; request: unknown };
    const settled = [last, 'completed', 'failed', 'cancelled'];
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && !settled.includes((await caseOf()).case.status)) await sleep(200);
    const { case: summary, request } = await caseOf();
    const events = await historyEvents(stack, id);
    const startMemo = events[0]!.workflowExecutionStartedEventAttributes!.memo!;
    const upserts = events.flatMap((event) => {
      const upserted = event.workflowPropertiesModifiedEventAttributes?.upsertedMemo;
      return upserted ? [upserted] : [];
    });
    const perChange =
      upserts.reduce((total, upserted) => total + memoBytes(upserted), 0) / (upserts.length || 1);
    const event = {
      eventId: `evt_${'0'.repeat(32)}`,
      accountId: `acct_${'0'.repeat(26)}`,
      type: 'prior_authorization.updated',
      createdAt: summary.updated_at,
    };
    const sequence = summary.status_history.length;
    const before = jsonBytes({ ...event, data: { ...summary, request, sequence } });
    const after = jsonBytes({ ...event, data: { ...summary, sequence }, caseId: summary.id });
    lines.push(
      columns(
        `${label} (${summary.status})`,
        kib(jsonBytes(request)),
        kib(memoBytes(startMemo)),
        kib(perChange),
        `${upserts.filter((upserted) => upserted.fields?.request).length} of ${upserts.length}`,
        `${kib(before)} → ${kib(after)}`,
      ),
    );
  }
  console.log(`${lines.join('\n')}\n`);
}

interface CaseSummary {
  id: string;
  status: string;
  updated_at: string;
  status_history: unknown[];
}

/** A case's history an event at a time: one with a large request outgrows a single gRPC message. */
async function historyEvents(
  stack: LocalStack,
  workflowId: string,
): Promise<proto.api.history.v1.IHistoryEvent[]> {
  const events: proto.api.history.v1.IHistoryEvent[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await stack.temporal.workflowService.getWorkflowExecutionHistory({
      namespace: stack.namespace,
      execution: { workflowId },
      maximumPageSize: 1,
      nextPageToken,
    });
    events.push(...(page.history?.events ?? []));
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return events;
}
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

async function clinicalEligibility(api: Api, receiver: WebhookReceiver): Promise<void> {
  const today = new Date().toISOString();
  const durations: number[] = [];
  for (let run = 0; run < 500; run += 1) {
    const startedAt = performance.now();
    evaluateClinicalEligibility({
      patient: { date_of_birth: '1970-01-01', gender: 'other' },
      asOf: today.slice(0, 10),
      drugs: CE_DRUGS,
      diagnoses: CE_DIAGNOSES,
      questionnaires: [],
      visitNotes: [{ content: CE_NOTES, created_at: today }],
      evidence: ceEvidence(today),
    });
    durations.push(performance.now() - startedAt);
  }
  const endToEnd: number[] = [];
  for (let run = 0; run < 20; run += 1) {
    const startedAt = performance.now();
    const id = await create(api, '/clinical-eligibility', ceRequest());
    await waitForArrivals(receiver, [id], 30_000);
    endToEnd.push((receiver.firstArrival(id) ?? Number.NaN) - startedAt);
  }
  console.log(
    [
      'Clinical eligibility, 5 drugs and 20 evidence items',
      `  criteria evaluation (500 runs)    p50 ${ms(percentile(durations, 50))}   p99 ${ms(percentile(durations, 99))}`,
      `  POST to final webhook (20 runs)   p50 ${ms(percentile(endToEnd, 50))}   p99 ${ms(percentile(endToEnd, 99))}`,
      '',
    ].join('\n'),
  );
}

async function clinicalTextExtraction(): Promise<void> {
  const rows = await measureExtraction();
  console.log(
    [
      'Clinical text extraction, milliseconds per 100 KB of visit note (in this process, no pool)',
      `  ${'shape'.padEnd(52)} clinical eligibility   PA prefill`,
      ...rows.map(
        (row) =>
          `  ${row.shape.padEnd(52)} ${row.clinicalEligibilityMsPer100Kb.toFixed(1).padStart(10)} ms   ${row.priorAuthPrefillMsPer100Kb.toFixed(1).padStart(8)} ms`,
      ),
      '',
    ].join('\n'),
  );
}

async function openPriorAuthorizations(stack: LocalStack): Promise<void> {
  const open: string[] = [];
  for (const target of OPEN_PRIOR_AUTHORIZATIONS) {
    const startedAt = performance.now();
    await withConcurrency(
      Array.from({ length: target - open.length }, () => paRequest()),
      CONCURRENCY,
      async (body) => void open.push(await create(stack.api, '/prior-authorization', body)),
    );
    const createdIn = (performance.now() - startedAt) / 1000;
    const deadline = Date.now() + 30 * 60_000;
    let inReview = 0;
    while (Date.now() < deadline) {
      inReview = await count(
        stack,
        `CaseType = 'prior_authorization' AND CaseStatus = 'awaiting_review' AND ExecutionStatus = 'Running'`,
      );
      if (inReview >= open.length) break;
      await sleep(500);
    }
    const allInReviewIn = (performance.now() - startedAt) / 1000;

    const timeGets = async (concurrency: number, reads: number) => {
      const latencies: number[] = [];
      await withConcurrency(Array.from({ length: reads }), concurrency, async () => {
        const id = open[Math.floor(Math.random() * open.length)];
        const readAt = performance.now();
        const response = await stack.api(`/prior-authorization/${id}`);
        await response.arrayBuffer();
        latencies.push(performance.now() - readAt);
      });
      return latencies;
    };
    const sequential = await timeGets(1, 200);
    const cpuBefore = stack.processMemory();
    const concurrentStarted = performance.now();
    const concurrent = await timeGets(32, 1_000);
    const getCpu = cpuShares(
      cpuBefore,
      stack.processMemory(),
      (performance.now() - concurrentStarted) / 1000,
    );
    const lists: number[] = [];
    for (let read = 0; read < 50; read += 1) {
      const readAt = performance.now();
      await (await stack.api('/prior-authorization?status=awaiting_review&limit=20')).arrayBuffer();
      lists.push(performance.now() - readAt);
    }
    const memory = stack.processMemory();
    console.log(
      [
        `${target} prior authorizations open`,
        `  created in ${createdIn.toFixed(0)} s; ${inReview} of ${open.length} in awaiting_review after ${allInReviewIn.toFixed(0)} s${inReview < open.length ? '  (SOME NEVER ARRIVED)' : ''}`,
        `  GET running case, 1 at a time (200)    p50 ${ms(percentile(sequential, 50))}   p99 ${ms(percentile(sequential, 99))}`,
        `  GET running case, 32 at a time (1000)  p50 ${ms(percentile(concurrent, 50))}   p99 ${ms(percentile(concurrent, 99))}`,
        `    CPU meanwhile (% of one core): ${getCpu}`,
        `  list, status filter, 20 per page (50)  p50 ${ms(percentile(lists, 50))}   p99 ${ms(percentile(lists, 99))}`,
        `  RSS ${memory.map((entry) => `${entry.label} ${entry.rssMb.toFixed(0)} MB`).join(', ')}`,
        '',
      ].join('\n'),
    );
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
