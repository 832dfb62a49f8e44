import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

import { temporal as proto } from '@temporalio/proto';

import { evaluateClinicalEligibility } from '../domain/clinical/criteria-evaluation';
import { projectRoot } from '../infrastructure/project-root';
import { postgresBinDir } from '../infrastructure/storage/postgres-server';
import {
  bvRequest,
  cardBvRequest,
  enrollmentRequest,
  paAdaptiveQuestionnaireRequest,
  paMeetingCriteriaRequest,
  paRequest,
  patient,
} from './bench-requests';
import { crdCallLatency } from './crd-call.bench-section';
import {
  casePostLatency,
  enforcedCasePostLatency,
  registryLookupLatency,
  startLoopbackRegistry,
  validNpis,
} from './providers.bench-section';
import { dtrPrefillLatency } from './dtr-prefill.bench-section';
import { documentReading } from './documents.bench-section';
import { measureExtraction } from './extraction.bench-support';
import { soak } from './soak.bench-section';
import { ClusterStack, startClusterStack } from './cluster-stack';
import { startLocalStack } from './local-stack';
import { machineBusySeconds, ProcessMemory } from './process-tree';
import { Api, BenchStack } from './stack';
import { ms, percentile, withConcurrency } from './support';
import { shippedPayerCatalog, shippedClinicalCatalog } from '../infrastructure/catalogs/shipped-catalogs';

/** Concurrency of every creation phase, so the raw and HTTP rates compare like for like. */
const CONCURRENCY = 16;
const CREATE_RATE_CASES = 300;
/** Sizes of the bursts and of the open-case phases; an empty list skips the phase. */
const sizes = (variable: string, fallback: string) =>
  (process.env[variable] ?? fallback).split(',').filter(Boolean).map(Number);
const BURSTS = sizes('BENCH_BURSTS', '200,1000');
const OPEN_PRIOR_AUTHORIZATIONS = sizes('BENCH_OPEN_PAS', '1000,10000');

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
 * evaluation. Then the same bursts against the cluster (`npm run start:cluster`: the production
 * Temporal server on PostgreSQL, two APIs and two workers), printed beside local mode's. Figures are
 * printed; nothing is asserted.
 *
 * BENCH_BURSTS and BENCH_OPEN_PAS set the sizes (comma-separated; empty skips the phase).
 * BENCH_ONLY=bursts runs only the bursts on both stacks, BENCH_ONLY=documents only the document reader
 * (BENCH_CARDS_PER_LAYOUT, BENCH_SEED, BENCH_HELD_OUT_SEED), BENCH_ONLY=cards only the benefit
 * verifications from card images on local mode, BENCH_ONLY=reads only the reads with many prior
 * authorizations open (BENCH_OPEN_PAS) on local mode, or on the cluster with BENCH_READS_ON=cluster,
 * BENCH_ONLY=soak only the soak with faults (bench/soak.bench-section.ts), BENCH_ONLY=pa-steps only a
 * prior authorization's first steps (BENCH_PA_STEP_RUNS; BENCH_PA_NO_AUTH=0 leaves out the cases the
 * payer needs no authorization for, and BENCH_PA_DTR=0 the payer's questionnaire, for a build that
 * predates them), BENCH_ONLY=providers only case creation's latency at the API and the NPI registry's
 * lookup (bench/providers.bench-section.ts); BENCH_CLUSTER=0 skips the cluster.
 */
async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === 'documents') return documentReading();
  if (process.env.BENCH_ONLY === 'cards') return cardsOnly();
  if (process.env.BENCH_ONLY === 'reads') return readsOnly();
  if (process.env.BENCH_ONLY === 'soak') return soak();
  if (process.env.BENCH_ONLY === 'pa-steps') return priorAuthorizationStepsOnly();
  if (process.env.BENCH_ONLY === 'providers') return providersOnly();
  const local = await localMode();
  if (process.env.BENCH_CLUSTER === '0') return;
  if (!postgresBinDir() && !process.env.DATABASE_URL) {
    console.log("Cluster bursts skipped: install PostgreSQL (Debian's `postgresql`) or set DATABASE_URL.");
    return;
  }
  printSideBySide(local, await clusterBursts());
}

const ONLY_BURSTS = process.env.BENCH_ONLY === 'bursts';

async function cardsOnly(): Promise<void> {
  const stack = await startLocalStack();
  const receiver = await WebhookReceiver.start();
  try {
    await subscribe(stack.api, receiver, ['benefit_verification.updated']);
    await create(stack.api, '/benefit-verification', bvRequest()); // warm-up
    await cardBenefitVerifications(stack, receiver);
  } finally {
    receiver.close();
    await stack.stop();
  }
}

async function priorAuthorizationStepsOnly(): Promise<void> {
  if (process.env.BENCH_PA_NO_AUTH !== '0') console.log((await crdCallLatency()).join('\n'));
  if (process.env.BENCH_PA_DTR !== '0') console.log((await dtrPrefillLatency()).join('\n'));
  const stack = await startLocalStack();
  const receiver = await WebhookReceiver.start();
  try {
    await subscribe(stack.api, receiver, ['prior_authorization.updated']);
    await create(stack.api, '/prior-authorization', paRequest()); // warm-up
    await priorAuthorizationSteps(stack, receiver);
  } finally {
    receiver.close();
    await stack.stop();
  }
}

/**
 * Prescribers (docs/providers.md): what a BV or PA POST costs with the account's provider-authorization
 * check (off, then on with the prescriber authorized), and the NPI registry's lookup from the cache and
 * against a loopback registry. Set BENCH_PROVIDERS_ENFORCEMENT=0 and BENCH_PROVIDERS_REGISTRY=0 for
 * builds without them.
 */
async function providersOnly(): Promise<void> {
  const registry = await startLoopbackRegistry();
  process.env.SANDBOX_NPI_REGISTRY_URL = registry.url;
  const stack = await startLocalStack();
  try {
    console.log((await casePostLatency(stack.api, 'enforcement off, the test mode default')).join('\n'));
    if (process.env.BENCH_PROVIDERS_ENFORCEMENT !== '0')
      console.log((await enforcedCasePostLatency(stack.api, (await stack.databaseUrl!())!)).join('\n'));
    if (process.env.BENCH_PROVIDERS_REGISTRY !== '0')
      console.log((await registryLookupLatency(stack.api, validNpis(200))).join('\n'));
  } finally {
    registry.close();
    await stack.stop();
  }
}

const PA_STEP_RUNS = Number(process.env.BENCH_PA_STEP_RUNS ?? 20);

/**
 * A prior authorization's first steps on an idle system, one case at a time: POST → awaiting_review of
 * the bench's usual request (Ozempic, which the sandbox plan authorizes: its CRD service answers
 * `auth-needed`), comparable with builds from before the CRD step; and POST → final webhook of one the
 * CRD service says needs no authorization, which completes without a review.
 */
async function priorAuthorizationSteps(stack: BenchStack, receiver: WebhookReceiver): Promise<void> {
  const toReview: number[] = [];
  for (let run = 0; run < PA_STEP_RUNS; run += 1) {
    const postedAt = performance.now();
    const id = await create(stack.api, '/prior-authorization', paRequest());
    while ((await statusOf(stack.api, '/prior-authorization', id)) !== 'awaiting_review') await sleep(5);
    toReview.push(performance.now() - postedAt);
  }
  const lines = [
    `Prior authorizations, one at a time on an idle system (${PA_STEP_RUNS} each)`,
    `  POST → awaiting_review (CRD auth-needed)      p50 ${ms(percentile(toReview, 50))}   p99 ${ms(percentile(toReview, 99))}`,
  ];
  if (process.env.BENCH_PA_NO_AUTH !== '0') {
    const toFinalWebhook: number[] = [];
    for (let run = 0; run < PA_STEP_RUNS; run += 1) {
      const postedAt = performance.now();
      const id = await create(stack.api, '/prior-authorization', {
        ...paRequest(),
        mock_result: { coverage_requirements: 'no-auth' },
      });
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !receiver.arrivalOf(id, ['completed'])) await sleep(5);
      const arrival = receiver.arrivalOf(id, ['completed']);
      if (arrival) toFinalWebhook.push(arrival.at - postedAt);
    }
    lines.push(
      `  POST → final webhook (CRD no-auth)           p50 ${ms(percentile(toFinalWebhook, 50))}   p99 ${ms(percentile(toFinalWebhook, 99))}   (${toFinalWebhook.length} of ${PA_STEP_RUNS} completed)`,
    );
  }
  if (process.env.BENCH_PA_DTR !== '0') {
    lines.push(await questionnaireAnsweredToReview(stack, receiver));
    lines.push(await adaptiveQuestionnaireToReview(stack, receiver));
  }
  console.log(`${lines.join('\n')}\n`);
}

/**
 * POST → the webhook of `awaiting_review` for a record that meets Ozempic's criteria: CRD names the
 * drug's questionnaire, the sandbox's DTR package is prefilled by its CQL in the pool, and the case
 * reaches review with every required item answered (counted from the case as it then stands).
 */
async function questionnaireAnsweredToReview(stack: BenchStack, receiver: WebhookReceiver): Promise<string> {
  const { toWebhook, pending } = await questionnairesToReview(stack, receiver, paMeetingCriteriaRequest);
  const answered = pending.filter((links) => links.length === 0).length;
  return `  POST → awaiting_review webhook (CRD → DTR)   p50 ${ms(percentile(toWebhook, 50))}   p99 ${ms(percentile(toWebhook, 99))}   (${answered} of ${PA_STEP_RUNS} with every required item answered)`;
}

/**
 * The same for the sandbox's adaptive Xeljanz package: its DTR service serves a question a round, each
 * prefilled by the payer's CQL, until the tuberculosis screening, which the record leaves to a person.
 */
async function adaptiveQuestionnaireToReview(stack: BenchStack, receiver: WebhookReceiver): Promise<string> {
  const { toWebhook, pending } = await questionnairesToReview(
    stack,
    receiver,
    paAdaptiveQuestionnaireRequest,
  );
  const leftToAPerson = pending.filter((links) => links.join() === 'tuberculosis_screening').length;
  return `  POST → awaiting_review webhook (adaptive DTR) p50 ${ms(percentile(toWebhook, 50))}   p99 ${ms(percentile(toWebhook, 99))}   (${leftToAPerson} of ${PA_STEP_RUNS} with only the screening left to a person)`;
}

async function questionnairesToReview(
  stack: BenchStack,
  receiver: WebhookReceiver,
  request: () => object,
): Promise<{ toWebhook: number[]; pending: string[][] }> {
  const toWebhook: number[] = [];
  const pending: string[][] = [];
  for (let run = 0; run < PA_STEP_RUNS; run += 1) {
    const postedAt = performance.now();
    const id = await create(stack.api, '/prior-authorization', request());
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !receiver.arrivalOf(id, ['awaiting_review'])) await sleep(5);
    const arrival = receiver.arrivalOf(id, ['awaiting_review']);
    if (!arrival) continue;
    toWebhook.push(arrival.at - postedAt);
    const body = (await (await stack.api(`/prior-authorization/${id}`)).json()) as {
      data: { questionnaire?: { pending: string[] } | null };
    };
    if (body.data.questionnaire) pending.push(body.data.questionnaire.pending);
  }
  return { toWebhook, pending };
}

/**
 * The reads on local mode, or with BENCH_READS_ON=cluster on the production shape (PostgreSQL, the
 * SQL-backed Temporal server, two APIs taking reads in turn).
 */
async function readsOnly(): Promise<void> {
  const onCluster = process.env.BENCH_READS_ON === 'cluster';
  const stack = onCluster ? await startClusterStack() : await startLocalStack();
  console.log(`Reads with prior authorizations open, on ${onCluster ? 'the cluster' : 'local mode'}\n`);
  try {
    await create(stack.api, '/prior-authorization', paRequest()); // warm-up
    await openPriorAuthorizations(stack);
  } finally {
    await stack.stop();
  }
}

async function localMode(): Promise<BurstFigures[]> {
  const stack = await startLocalStack();
  const bursts: BurstFigures[] = [];
  try {
    await create(stack.api, '/benefit-verification', bvRequest()); // warm-up
    console.log(`Case benchmark against local mode (concurrency ${CONCURRENCY})\n`);
    if (!ONLY_BURSTS) await creationRates(stack);
    const receiver = await WebhookReceiver.start();
    try {
      await subscribe(stack.api, receiver, [
        'benefit_verification.updated',
        'clinical_eligibility.updated',
        'prior_authorization.updated',
      ]);
      if (!ONLY_BURSTS) await idleWebhookLatency(stack, receiver);
      if (!ONLY_BURSTS) await cardBenefitVerifications(stack, receiver);
      if (!ONLY_BURSTS) {
        console.log((await crdCallLatency()).join('\n'));
        console.log((await dtrPrefillLatency()).join('\n'));
        await priorAuthorizationSteps(stack, receiver);
      }
      for (const size of BURSTS) bursts.push(await burst(stack, receiver, size));
      if (!ONLY_BURSTS) {
        await engineCosts(stack, receiver);
        await caseWriteSizes(stack);
        await clinicalEligibility(stack.api, receiver);
        await clinicalTextExtraction();
        await documentReading();
      }
    } finally {
      receiver.close();
    }
    if (!ONLY_BURSTS) await openPriorAuthorizations(stack);
  } finally {
    await stack.stop();
  }
  return bursts;
}

async function clusterBursts(): Promise<BurstFigures[]> {
  const stack = await startClusterStack();
  const bursts: BurstFigures[] = [];
  try {
    // One warm-up case per API process.
    await create(stack.api, '/benefit-verification', bvRequest());
    await create(stack.api, '/benefit-verification', bvRequest());
    console.log(
      `Burst benchmark against the cluster: production Temporal server (${CLUSTER_HISTORY_SHARDS} history shards) ` +
        `on PostgreSQL, 2 APIs (requests in turn) and 2 workers (concurrency ${CONCURRENCY})\n`,
    );
    const receiver = await WebhookReceiver.start();
    try {
      await subscribe(stack.api, receiver, ['benefit_verification.updated']);
      for (const size of BURSTS) {
        const { result, peak } = await withPeakConnections(stack, () => burst(stack, receiver, size));
        console.log(
          `  PostgreSQL client connections, peak during the burst: ${[...peak].map(([database, connections]) => `${database} ${connections}`).join(', ')} ` +
            `(${[...peak.values()].reduce((total, connections) => total + connections, 0)} in all)\n`,
        );
        bursts.push(result);
      }
    } finally {
      receiver.close();
    }
  } finally {
    await stack.stop();
  }
  return bursts;
}

/** The production server's history shards, read from its configuration so the label cannot drift. */
const CLUSTER_HISTORY_SHARDS = Number(
  /numHistoryShards:\s*(\d+)/.exec(
    readFileSync(path.join(projectRoot(), 'deploy', 'temporal', 'production.yaml'), 'utf8'),
  )?.[1],
);

/** Runs `work` while sampling the cluster's PostgreSQL connections each second; keeps each database's peak. */
async function withPeakConnections<T>(
  stack: ClusterStack,
  work: () => Promise<T>,
): Promise<{ result: T; peak: Map<string, number> }> {
  const peak = new Map<string, number>();
  let working = true;
  const sampler = (async () => {
    while (working) {
      for (const [database, connections] of await stack.databaseConnections())
        peak.set(database, Math.max(peak.get(database) ?? 0, connections));
      await sleep(1_000);
    }
  })().catch((error: Error) => console.log(`  (connection sampling stopped: ${error.message})`));
  try {
    return { result: await work(), peak };
  } finally {
    working = false;
    await sampler;
  }
}

interface KindTotal {
  processes: number;
  total: number;
}

/** Sums a figure over the processes of each kind (the two APIs, PostgreSQL's backends...). */
function byKind(entries: ProcessMemory[], figure: (entry: ProcessMemory) => number): Map<string, KindTotal> {
  const kinds = new Map<string, KindTotal>();
  for (const entry of entries) {
    const kind = kinds.get(entry.label) ?? { processes: 0, total: 0 };
    kinds.set(entry.label, { processes: kind.processes + 1, total: kind.total + figure(entry) });
  }
  return kinds;
}

/** CPU each kind of process used between two snapshots, as a share of one core. */
function cpuByKind(before: ProcessMemory[], after: ProcessMemory[], seconds: number): Map<string, KindTotal> {
  const earlier = new Map(before.map((entry) => [entry.pid, entry.cpuSeconds]));
  return byKind(after, (entry) => ((entry.cpuSeconds - (earlier.get(entry.pid) ?? 0)) / seconds) * 100);
}

const kindLabel = (label: string, kind: KindTotal) =>
  kind.processes > 1 ? `${label} (${kind.processes})` : label;

const formatKinds = (kinds: Map<string, KindTotal>, unit: string) =>
  [...kinds].map(([label, kind]) => `${kindLabel(label, kind)} ${kind.total.toFixed(0)} ${unit}`).join(', ');

/** CPU each kind of process of the stack used between two snapshots, as a share of one core. */
function cpuShares(before: ProcessMemory[], after: ProcessMemory[], seconds: number): string {
  return formatKinds(cpuByKind(before, after, seconds), '%');
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
async function count(stack: BenchStack, query: string): Promise<number> {
  const response = await stack.temporal.workflowService.countWorkflowExecutions({
    namespace: stack.namespace,
    query,
  });
  return Number(response.count ?? 0);
}

/** Waits until nothing of the case type runs any more (or the deadline passes). */
async function drain(stack: BenchStack, caseType: string, deadlineMs = 600_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if ((await count(stack, `CaseType = '${caseType}' AND ExecutionStatus = 'Running'`)) === 0) return;
    await sleep(250);
  }
}

async function creationRates(stack: BenchStack): Promise<void> {
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
  /** When the first notification of each status arrived, by case id. */
  readonly statusArrivals = new Map<string, Map<string, number>>();

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
          data: { id: string; status?: string };
        };
        receiver.eventLatencies.push(Date.now() - Date.parse(body.created_at));
        const seen = receiver.arrivals.get(body.data.id) ?? [];
        receiver.arrivals.set(body.data.id, [...seen, arrivedAt]);
        const statuses = receiver.statusArrivals.get(body.data.id) ?? new Map<string, number>();
        if (body.data.status && !statuses.has(body.data.status)) statuses.set(body.data.status, arrivedAt);
        receiver.statusArrivals.set(body.data.id, statuses);
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

  /** When the case's first notification of one of `statuses` arrived, with that status. */
  arrivalOf(caseId: string, statuses: readonly string[]): { status: string; at: number } | undefined {
    for (const [status, at] of this.statusArrivals.get(caseId) ?? []) {
      if (statuses.includes(status)) return { status, at };
    }
    return undefined;
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

/**
 * The statuses a benefit verification announces (docs/workflows.md): only its end. A case handed to a
 * person (`awaiting_review`, a card whose member id was not read) is announced when the person decides.
 */
const BV_FINAL = ['completed', 'failed'];
const CARD_BVS_AT_ONCE = 20;

/**
 * Benefit verifications from a card image alone: POST → the webhook of the status each settles in, one
 * at a time on an idle system; then 20 at once, with the GETs of other cases timed before and during.
 */
async function cardBenefitVerifications(stack: BenchStack, receiver: WebhookReceiver): Promise<void> {
  const post = async (body: object) => {
    const postedAt = performance.now();
    const id = await create(stack.api, '/benefit-verification', body);
    return { id, postedAt };
  };
  const workerRss = () =>
    stack
      .processMemory()
      .filter((process) => process.label === 'worker')
      .reduce((total, process) => total + process.rssMb, 0);
  const rssBefore = workerRss();
  const idle: number[] = [];
  const statuses = new Map<string, number>();
  for (let run = 0; run < 10; run += 1) {
    const { id, postedAt } = await post(await cardBvRequest());
    await waitForEnd(stack, receiver, id, 60_000);
    const arrival = receiver.arrivalOf(id, BV_FINAL);
    const status = arrival?.status ?? (await statusOf(stack.api, '/benefit-verification', id));
    if (arrival) idle.push(arrival.at - postedAt);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  const other = await create(stack.api, '/benefit-verification', bvRequest());
  const timeGets = async (until: () => boolean, atLeast: number) => {
    const latencies: number[] = [];
    while (latencies.length < atLeast || !until()) {
      const startedAt = performance.now();
      await stack.api(`/benefit-verification/${other}`);
      latencies.push(performance.now() - startedAt);
    }
    return latencies;
  };
  const idleGets = await timeGets(() => true, 100);
  const bodies = await Promise.all(Array.from({ length: CARD_BVS_AT_ONCE }, () => cardBvRequest()));
  const startedAt = performance.now();
  let done = false;
  const busyGets = timeGets(() => done, 1);
  const posted = await Promise.all(bodies.map((body) => post(body)));
  await Promise.all(posted.map(({ id }) => waitForEnd(stack, receiver, id, 300_000)));
  done = true;
  const duringGets = await busyGets;
  const rssAfter = workerRss();
  const ended = posted.filter(({ id }) => receiver.arrivalOf(id, BV_FINAL));
  const lastEnded = Math.max(...ended.map(({ id }) => receiver.arrivalOf(id, BV_FINAL)!.at));
  console.log(
    [
      'Benefit verifications from a card image alone (one PNG, OCR in the worker), one webhook endpoint',
      `  idle, 10 one at a time: POST → final webhook   p50 ${ms(percentile(idle, 50))}   p99 ${ms(percentile(idle, 99))}   ` +
        `(${[...statuses].map(([status, cases]) => `${cases} ${status}`).join(', ')})`,
      `  ${CARD_BVS_AT_ONCE} at once: ${ended.length} of ${CARD_BVS_AT_ONCE} ended (completed or failed), the last ${ms(lastEnded - startedAt)} after the first POST`,
      `  GET of another case, idle      p50 ${ms(percentile(idleGets, 50))}   p99 ${ms(percentile(idleGets, 99))}   (${idleGets.length} reads)`,
      `  GET of another case, during    p50 ${ms(percentile(duringGets, 50))}   p99 ${ms(percentile(duringGets, 99))}   (${duringGets.length} reads)`,
      `  worker RSS                     ${Math.round(rssBefore)} MB before the first card, ${Math.round(rssAfter)} MB after the 30 (+${Math.round(rssAfter - rssBefore)} MB, the reader warm)`,
      '',
    ].join('\n'),
  );
}

/** Until the case's final webhook arrives, or the case waits for a person (which no webhook announces). */
async function waitForEnd(
  stack: BenchStack,
  receiver: WebhookReceiver,
  id: string,
  deadlineMs: number,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline && !receiver.arrivalOf(id, BV_FINAL)) {
    if ((await statusOf(stack.api, '/benefit-verification', id)) === 'awaiting_review') return;
    await sleep(250);
  }
}

async function idleWebhookLatency(stack: BenchStack, receiver: WebhookReceiver): Promise<void> {
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

interface BurstFigures {
  size: number;
  /** Cases the APIs answered 201 for, per second from the first POST to the last answer. */
  acceptedPerSecond: number;
  /** Cases whose webhook arrived, per second from the first POST to the last webhook. */
  completedPerSecond: number;
  toWebhookP50: number;
  toWebhookP99: number;
  arrived: number;
  /** Time from scheduling to a worker picking up, over the tasks of a sample of the burst's cases. */
  workflowTaskScheduleToStart: number[];
  activityScheduleToStart: number[];
  stateTransitionsPerCase: number;
  cpu: Map<string, KindTotal>;
  /** Every core's busy time over the burst, as a share of one core: the stack's and everyone else's. */
  machineCpu: number;
  pssMb: Map<string, KindTotal>;
}

/** Cases of a burst, spread over it, whose histories are read for schedule-to-start latency and state transitions. */
const HISTORY_SAMPLE = 50;

async function burst(stack: BenchStack, receiver: WebhookReceiver, size: number): Promise<BurstFigures> {
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
  const machineBefore = machineBusySeconds();
  const firstPost = performance.now();
  await withConcurrency(
    Array.from({ length: size }, () => bvRequest()),
    CONCURRENCY,
    async (body) => {
      const id = await create(stack.api, '/benefit-verification', body);
      created.set(id, performance.now());
    },
  );
  const acceptedPerSecond = size / ((performance.now() - firstPost) / 1000);
  posting = false;
  await Promise.all(readers);
  const ids = [...created.keys()];
  await waitForArrivals(receiver, ids, 300_000);
  const arrived = ids.filter((id) => receiver.firstArrival(id) !== undefined);
  const lastArrival = Math.max(...arrived.map((id) => receiver.firstArrival(id)!));
  const toWebhook = arrived.map((id) => receiver.firstArrival(id)! - created.get(id)!);
  const memory = stack.processMemory();
  const seconds = (lastArrival - firstPost) / 1000;
  const cpu = cpuByKind(cpuBefore, memory, seconds);
  const machineCpu = ((machineBusySeconds() - machineBefore) / seconds) * 100;
  const every = Math.max(1, Math.floor(ids.length / HISTORY_SAMPLE));
  const sample = await taskLatencies(
    stack,
    ids.filter((_, index) => index % every === 0).slice(0, HISTORY_SAMPLE),
  );
  const figures: BurstFigures = {
    size,
    acceptedPerSecond,
    completedPerSecond: arrived.length / ((lastArrival - firstPost) / 1000),
    toWebhookP50: percentile(toWebhook, 50),
    toWebhookP99: percentile(toWebhook, 99),
    arrived: arrived.length,
    ...sample,
    cpu,
    machineCpu,
    pssMb: byKind(memory, (entry) => entry.pssMb),
  };
  console.log(
    [
      `Burst of ${size} benefit verifications to one webhook endpoint (${CONCURRENCY} POSTs at a time)`,
      `  accepted at the API (first POST → last 201)  ${acceptedPerSecond.toFixed(1)} cases/s`,
      `  end to end (first POST → last webhook)   ${figures.completedPerSecond.toFixed(1)} cases/s`,
      `  creation → webhook received              ${p50p99(toWebhook)}`,
      `  GET during the burst (${getLatencies.length} reads)         ${p50p99(getLatencies)}`,
      `  webhooks received                        ${arrived.length} of ${size}${arrived.length < size ? '  (MISSING after 5 min)' : ''}`,
      `  workflow task schedule → start (${HISTORY_SAMPLE} cases)   ${p50p99(sample.workflowTaskScheduleToStart)}`,
      `  activity task schedule → start (${HISTORY_SAMPLE} cases)   ${p50p99(sample.activityScheduleToStart)}`,
      `  state transitions per case               ${sample.stateTransitionsPerCase.toFixed(1)}`,
      `  CPU during the burst (% of one core)     ${formatKinds(cpu, '%')}`,
      `    whole machine (${os.cpus().length} cores, other work included)  ${machineCpu.toFixed(0)} %`,
      `  memory after the burst (PSS)             ${formatKinds(figures.pssMb, 'MB')}`,
      '',
    ].join('\n'),
  );
  return figures;
}

const p50p99 = (values: number[]) =>
  values.length ? `p50 ${ms(percentile(values, 50))}   p99 ${ms(percentile(values, 99))}` : 'none in history';

const eventMs = (event: proto.api.history.v1.IHistoryEvent) =>
  Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;

/**
 * How long the cases' workflow and activity tasks waited for a worker, read from their histories
 * (local activities never appear there), and the engine's state transitions per case.
 */
async function taskLatencies(
  stack: BenchStack,
  workflowIds: string[],
): Promise<
  Pick<BurstFigures, 'workflowTaskScheduleToStart' | 'activityScheduleToStart' | 'stateTransitionsPerCase'>
> {
  const workflowTasks: number[] = [];
  const activityTasks: number[] = [];
  let stateTransitions = 0;
  for (const workflowId of workflowIds) {
    const { workflowExecutionInfo: info } = await stack.temporal.workflowService.describeWorkflowExecution({
      namespace: stack.namespace,
      execution: { workflowId },
    });
    stateTransitions += Number(info?.stateTransitionCount ?? 0);
    const page = await stack.temporal.workflowService.getWorkflowExecutionHistory({
      namespace: stack.namespace,
      execution: { workflowId },
    });
    const events = page.history?.events ?? [];
    const scheduledAt = new Map(events.map((event) => [Number(event.eventId), eventMs(event)]));
    for (const event of events) {
      const workflowTask = event.workflowTaskStartedEventAttributes?.scheduledEventId;
      const activityTask = event.activityTaskStartedEventAttributes?.scheduledEventId;
      if (workflowTask) workflowTasks.push(eventMs(event) - scheduledAt.get(Number(workflowTask))!);
      if (activityTask) activityTasks.push(eventMs(event) - scheduledAt.get(Number(activityTask))!);
    }
  }
  return {
    workflowTaskScheduleToStart: workflowTasks,
    activityScheduleToStart: activityTasks,
    stateTransitionsPerCase: stateTransitions / (workflowIds.length || 1),
  };
}

/** Each burst size's figures on local mode beside the cluster's, from the same run. */
function printSideBySide(local: BurstFigures[], cluster: BurstFigures[]): void {
  const pairs = BURSTS.map((size) => [
    local.find((figures) => figures.size === size),
    cluster.find((figures) => figures.size === size),
  ]);
  const cell = (figures: BurstFigures | undefined, value: (figures: BurstFigures) => string) =>
    (figures ? value(figures) : '—').padStart(10);
  const row = (label: string, value: (figures: BurstFigures) => string) =>
    `  ${label.padEnd(40)}${pairs.map(([left, right]) => `${cell(left, value)}${cell(right, value)}   `).join('')}`;
  const quantile = (values: number[], p: number) => (values.length ? percentile(values, p).toFixed(0) : '—');
  const kinds = (select: (figures: BurstFigures) => Map<string, KindTotal>) => [
    ...new Set([...local, ...cluster].flatMap((figures) => [...select(figures).keys()])),
  ];
  const kindRow = (label: string, select: (figures: BurstFigures) => Map<string, KindTotal>, kind: string) =>
    row(`${label} ${kind}`, (figures) => {
      const total = select(figures).get(kind);
      return total ? `${total.total.toFixed(0)}${total.processes > 1 ? ` (${total.processes})` : ''}` : '—';
    });
  console.log(
    [
      'Bursts side by side: local = dev server on SQLite, 1 API + 1 worker; ' +
        `cluster = production server on PostgreSQL (${CLUSTER_HISTORY_SHARDS} shards), 2 APIs + 2 workers`,
      `  ${'burst size'.padEnd(40)}${BURSTS.map((size) => String(size).padStart(20).padEnd(23)).join('')}`,
      `  ${''.padEnd(40)}${BURSTS.map(() => `${'local'.padStart(10)}${'cluster'.padStart(10)}   `).join('')}`,
      row('accepted at the API (cases/s)', (figures) => figures.acceptedPerSecond.toFixed(1)),
      row('completed, last webhook (cases/s)', (figures) => figures.completedPerSecond.toFixed(1)),
      row('creation → webhook p50 (ms)', (figures) => figures.toWebhookP50.toFixed(0)),
      row('creation → webhook p99 (ms)', (figures) => figures.toWebhookP99.toFixed(0)),
      row('webhooks received', (figures) => String(figures.arrived)),
      row('workflow task schedule→start p50 (ms)', (figures) =>
        quantile(figures.workflowTaskScheduleToStart, 50),
      ),
      row('workflow task schedule→start p99 (ms)', (figures) =>
        quantile(figures.workflowTaskScheduleToStart, 99),
      ),
      row('state transitions/s', (figures) =>
        (figures.completedPerSecond * figures.stateTransitionsPerCase).toFixed(0),
      ),
      ...kinds((figures) => figures.cpu).map((kind) =>
        kindRow('CPU % of a core,', (figures) => figures.cpu, kind),
      ),
      row('CPU % of a core, whole machine', (figures) => figures.machineCpu.toFixed(0)),
      ...kinds((figures) => figures.pssMb).map((kind) =>
        kindRow('memory (PSS) MB,', (figures) => figures.pssMb, kind),
      ),
      '  (n) = processes of that kind, summed. The machine is shared: figures are noisy.',
      '',
    ].join('\n'),
  );
}

/** History length, state transitions and history bytes of one case of each type, as the engine counts them. */
async function engineCosts(stack: BenchStack, receiver: WebhookReceiver): Promise<void> {
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
async function caseWriteSizes(stack: BenchStack): Promise<void> {
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
  stack: BenchStack,
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
    evaluateClinicalEligibility(
      {
        patient: { date_of_birth: '1970-01-01', gender: 'other' },
        asOf: today.slice(0, 10),
        drugs: CE_DRUGS,
        diagnoses: CE_DIAGNOSES,
        questionnaires: [],
        visitNotes: [{ content: CE_NOTES, created_at: today }],
        evidence: ceEvidence(today),
      },
      shippedPayerCatalog().planFormulary(undefined),
      shippedClinicalCatalog(),
    );
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

async function openPriorAuthorizations(stack: BenchStack): Promise<void> {
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
        `  RSS ${formatKinds(
          byKind(memory, (entry) => entry.rssMb),
          'MB',
        )}`,
        '',
      ].join('\n'),
    );
  }
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
