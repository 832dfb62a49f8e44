import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import * as os from 'node:os';

import { FINAL_STATUSES } from '../domain/cases/case-model';
import { postgresBinDir } from '../infrastructure/storage/postgres-server';
import {
  bvRequest,
  cardBvRequest,
  ceWithNoteRequest,
  enrollmentRequest,
  paWithNoteRequest,
} from './bench-requests';
import { ClusterStack, startClusterStack } from './cluster-stack';
import { startLocalStack } from './local-stack';
import { machineBusySeconds, ProcessMemory } from './process-tree';
import { Api, BenchStack } from './stack';
import { CASE_EVENTS, EventAccounting, eventAccounting } from './soak-event-accounting';
import { percentile, withConcurrency } from './support';

/**
 * The soak (BENCH_ONLY=soak): a steady mixed load for BENCH_SOAK_MINUTES (30) on local mode and on
 * the cluster (BENCH_SOAK_ON=local,cluster), with faults at set points of the run, then a drain, and
 * a report of what was lost, what answered 500, how memory and CPU moved each minute, and how long
 * each fault took to heal. BENCH_SOAK_RATE sets the load in cases a minute (120, about half of what
 * this 2-core machine sustains: it kept the cores 33–50 % busy); the burst fault
 * sends three times that for a minute. Figures are printed; nothing is asserted.
 */

const MINUTE_MS = 60_000;
const WAITING_STATUSES = ['awaiting_review', 'awaiting_outcome'];
/** The receiver fails this share of deliveries with a 500, and answers this share slowly. */
const RECEIVER_FAILURE_SHARE = 0.05;
const RECEIVER_SLOW_SHARE = 0.05;
const RECEIVER_SLOW_MS = 4_000;
/** How long an integrator keeps trying one request that was refused, reset, timed out or answered 5xx. */
const INTEGRATOR_PATIENCE_MS = 5 * MINUTE_MS;
/** How long the bench's own bookkeeping GETs keep trying. */
const BOOKKEEPING_PATIENCE_MS = 30_000;
const REQUEST_TIMEOUT_MS = 60_000;
const POSTGRES_PAUSE_MS = 30_000;
const BURST_FACTOR = 3;
/** Heal probes outstanding at once per fault. */
const MAX_PROBES = 5;
const CORES = os.availableParallelism();

type CaseKind = 'bv_text' | 'bv_card' | 'pa' | 'ce' | 'enrollment' | 'probe';

/** Ten arrivals of the steady mix, spread so no kind comes in a run. */
const MIX: readonly CaseKind[] = [
  'bv_text',
  'pa',
  'ce',
  'bv_text',
  'enrollment',
  'bv_card',
  'bv_text',
  'pa',
  'ce',
  'bv_text',
];

const ROUTES: Record<CaseKind, string> = {
  bv_text: '/benefit-verification',
  bv_card: '/benefit-verification',
  probe: '/benefit-verification',
  pa: '/prior-authorization',
  ce: '/clinical-eligibility',
  enrollment: '/patient-enrollment',
};

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
const seconds = (milliseconds: number) => `${(milliseconds / 1000).toFixed(1)} s`;

interface SoakSettings {
  minutes: number;
  ratePerMinute: number;
  warmUpMinutes: number;
  drainMinutes: number;
}

function soakSettings(): SoakSettings {
  const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
  return {
    minutes,
    ratePerMinute: Number(process.env.BENCH_SOAK_RATE ?? 120),
    warmUpMinutes: Math.max(1, Math.min(5, Math.floor(minutes / 5))),
    drainMinutes: Number(process.env.BENCH_SOAK_DRAIN_MINUTES ?? 5),
  };
}

export async function soak(): Promise<void> {
  const settings = soakSettings();
  const shapes = (process.env.BENCH_SOAK_ON ?? 'local,cluster').split(',').filter(Boolean);
  console.log(
    `Soak: ${settings.minutes} min at ${settings.ratePerMinute} cases/min (a mix of 10: 4 text BVs, 1 card BV, ` +
      `2 PAs with a PDF note and a review, 2 CEs with a PDF note, 1 enrollment), warm-up ${settings.warmUpMinutes} min, ` +
      `drain up to ${settings.drainMinutes} min; the receiver fails ${RECEIVER_FAILURE_SHARE * 100} % of deliveries ` +
      `and answers ${RECEIVER_SLOW_SHARE * 100} % after ${seconds(RECEIVER_SLOW_MS)}\n`,
  );
  for (const shape of shapes) {
    if (shape !== 'cluster') {
      await soakOn('local', await startLocalStack(), settings);
    } else if (!postgresBinDir() && !process.env.DATABASE_URL) {
      console.log("Cluster soak skipped: install PostgreSQL (Debian's `postgresql`) or set DATABASE_URL.\n");
    } else {
      await soakOn('cluster', await startClusterStack(), settings);
    }
  }
}

/**
 * What the integrator saw: answers by status (those to requests that overlapped a PostgreSQL pause
 * apart), connections refused or reset, timeouts, and 503s without Retry-After.
 */
class Tally {
  readonly answers = new Map<string, number>();
  readonly answersDuringPause = new Map<string, number>();
  readonly connectionFailures = new Map<string, number>();
  timeouts = 0;
  unavailableWithoutRetryAfter = 0;
  /** Requests the integrator gave up on, with what they last met. */
  readonly abandoned: string[] = [];
  private readonly pauses: Array<{ from: number; to?: number }> = [];

  pauseStarts(): void {
    this.pauses.push({ from: Date.now() });
  }

  pauseEnds(): void {
    const pause = this.pauses[this.pauses.length - 1];
    if (pause) pause.to = Date.now();
  }

  count(method: string, status: number, sentAt: number): void {
    const overlapped = this.pauses.some(
      (pause) => sentAt <= (pause.to ?? Infinity) && Date.now() >= pause.from,
    );
    const into = overlapped ? this.answersDuringPause : this.answers;
    const key = `${method} ${status}`;
    into.set(key, (into.get(key) ?? 0) + 1);
  }

  connectionFailed(code: string): void {
    this.connectionFailures.set(code, (this.connectionFailures.get(code) ?? 0) + 1);
  }

  served500(): number {
    return [...this.answers, ...this.answersDuringPause]
      .filter(([key]) => key.endsWith(' 500'))
      .reduce((sum, [, count]) => sum + count, 0);
  }

  static describe(counts: Map<string, number>): string {
    return (
      [...counts.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, count]) => `${key}: ${count}`)
        .join(', ') || 'none'
    );
  }
}

/**
 * A fetch that never throws: a refused or reset connection (a TypeError with a cause, as undici
 * reports it) or a timeout comes back as the reason, counted in the tally.
 */
async function send(
  api: Api,
  route: string,
  init: RequestInit,
  tally: Tally,
): Promise<{ response: Response; body: AnswerBody } | { failed: string }> {
  const sentAt = Date.now();
  try {
    const response = await api(route, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const body = (await response.json()) as AnswerBody;
    tally.count(init.method ?? 'GET', response.status, sentAt);
    return { response, body };
  } catch (error) {
    if ((error as Error).name === 'TimeoutError') {
      tally.timeouts += 1;
      return { failed: 'timeout' };
    }
    const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    tally.connectionFailed(code);
    return { failed: code };
  }
}

/** The parts of an answer the soak reads. */
interface AnswerBody {
  data?: { id?: string; status?: string; data?: unknown; next_cursor?: string | null } | null;
}

/** Seconds a 503 or 429 asks the integrator to wait, 1 when it does not say (or says it as a date). */
function retryAfterMs(response: Response): number {
  const value = Number(response.headers.get('retry-after'));
  return Number.isFinite(value) && value > 0 ? Math.min(value, 10) * 1_000 : 1_000;
}

/**
 * A POST as a careful integrator sends it: one Idempotency-Key for every try; a refused or reset
 * connection, a timeout, a 5xx, a 429 or a 409 that asks to wait (the same key still being answered)
 * is tried again, after Retry-After when given, for up to INTEGRATOR_PATIENCE_MS. Resolves with the
 * answer's body, or undefined when the integrator gave up.
 */
async function postAsIntegrator(
  api: Api,
  route: string,
  body: unknown,
  tally: Tally,
): Promise<AnswerBody | undefined> {
  const key = randomUUID();
  const deadline = Date.now() + INTEGRATOR_PATIENCE_MS;
  let lastMet = '';
  while (Date.now() < deadline) {
    const sent = await send(
      api,
      route,
      { method: 'POST', body: JSON.stringify(body), headers: { 'Idempotency-Key': key } },
      tally,
    );
    if ('failed' in sent) {
      lastMet = sent.failed;
      await sleep(1_000);
      continue;
    }
    const { response } = sent;
    if (response.status < 300) return sent.body;
    lastMet = String(response.status);
    if (response.status === 503 && !response.headers.get('retry-after'))
      tally.unavailableWithoutRetryAfter += 1;
    const mayRetry =
      response.status >= 500 ||
      response.status === 429 ||
      (response.status === 409 && response.headers.has('retry-after'));
    if (!mayRetry) {
      tally.abandoned.push(
        `POST ${route} answered ${response.status}: ${JSON.stringify(sent.body).slice(0, 200)}`,
      );
      return undefined;
    }
    await sleep(retryAfterMs(response));
  }
  tally.abandoned.push(`POST ${route} still failing after ${seconds(INTEGRATOR_PATIENCE_MS)} (${lastMet})`);
  return undefined;
}

/** A GET that waits out refusals and outages for up to `patienceMs`; undefined when it got no answer below 500. */
async function getPatiently(
  api: Api,
  route: string,
  tally: Tally,
  patienceMs = BOOKKEEPING_PATIENCE_MS,
): Promise<{ status: number; body: AnswerBody } | undefined> {
  const deadline = Date.now() + patienceMs;
  while (Date.now() < deadline) {
    const sent = await send(api, route, {}, tally);
    if (!('failed' in sent) && sent.response.status < 500 && sent.response.status !== 429) {
      return { status: sent.response.status, body: sent.body };
    }
    await sleep(1_000);
  }
  return undefined;
}

/**
 * A webhook receiver that fails some deliveries and is slow on others, and notes every event id it
 * acknowledged and how often.
 */
class FlakyReceiver {
  readonly acknowledged = new Map<string, number>();
  failed = 0;
  slow = 0;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FlakyReceiver> {
    const server = createServer();
    const receiver = new FlakyReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const draw = Math.random();
        if (draw < RECEIVER_FAILURE_SHARE) {
          receiver.failed += 1;
          res.writeHead(500).end();
          return;
        }
        // The notification's own id is the event's (webhook-publisher.ts).
        const eventId = (JSON.parse(Buffer.concat(chunks).toString()) as { id: string }).id;
        const acknowledge = () => {
          receiver.acknowledged.set(eventId, (receiver.acknowledged.get(eventId) ?? 0) + 1);
          res.writeHead(200).end();
        };
        if (draw < RECEIVER_FAILURE_SHARE + RECEIVER_SLOW_SHARE) {
          receiver.slow += 1;
          setTimeout(acknowledge, RECEIVER_SLOW_MS);
        } else acknowledge();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  close(): void {
    this.server.close();
  }
}

interface SoakCase {
  kind: CaseKind;
  id?: string;
}

interface Fault {
  name: string;
  /** Minutes into the load. */
  at: number;
  /** Resolves when the fault is over, with what else there is to say about it. */
  inject(run: SoakRun): Promise<string | void>;
}

interface FaultOutcome {
  name: string;
  startedAt: number;
  endedAt?: number;
  healedAt?: number;
  note?: string;
}

interface MinuteSample {
  minute: number;
  at: number;
  processes: ProcessMemory[];
  machineBusy: number;
  eventLoopP99Ms: Map<string, number>;
  created: number;
}

/** One soak on one stack: the load, the faults, the samples and the final accounting. */
class SoakRun {
  readonly tally = new Tally();
  readonly cases: SoakCase[] = [];
  readonly faults: FaultOutcome[] = [];
  readonly samples: MinuteSample[] = [];
  /** Errors of the bench itself (not of the service), so one does not end a long run unreported. */
  readonly benchErrors: string[] = [];
  private readonly background = new Set<Promise<unknown>>();
  private rateFactor = 1;

  constructor(
    readonly shape: 'local' | 'cluster',
    readonly stack: BenchStack,
    readonly settings: SoakSettings,
  ) {}

  get api(): Api {
    return this.stack.api;
  }

  /** Runs `work` beside the load; its failure is noted, never thrown. */
  beside(label: string, work: Promise<unknown>): void {
    const tracked = work.catch((error: Error) => void this.benchErrors.push(`${label}: ${error.message}`));
    this.background.add(tracked);
    void tracked.finally(() => this.background.delete(tracked));
  }

  async settled(): Promise<void> {
    while (this.background.size > 0) await Promise.all(this.background);
  }

  /** Sends the steady mix until the load's end, BURST_FACTOR times faster while a burst runs. */
  async load(until: number): Promise<void> {
    for (let arrival = 0; Date.now() < until; arrival += 1) {
      const kind = MIX[arrival % MIX.length]!;
      this.beside(`a ${kind}`, this.submit(kind));
      await sleep(MINUTE_MS / (this.settings.ratePerMinute * this.rateFactor));
    }
  }

  async submit(kind: CaseKind): Promise<SoakCase> {
    const soakCase: SoakCase = { kind };
    this.cases.push(soakCase);
    const answer = await postAsIntegrator(this.api, ROUTES[kind], await requestOf(kind), this.tally);
    soakCase.id = answer?.data?.id;
    if (kind === 'pa' && soakCase.id) this.beside('a review', this.reviewWhenReady(soakCase.id));
    return soakCase;
  }

  /** A reviewer approves each prior authorization once it waits for review. */
  private async reviewWhenReady(id: string): Promise<void> {
    const deadline = Date.now() + 10 * MINUTE_MS;
    while (Date.now() < deadline) {
      const status = (await getPatiently(this.api, `/prior-authorization/${id}`, this.tally))?.body.data
        ?.status;
      if (status === 'awaiting_review') {
        await postAsIntegrator(
          this.api,
          `/prior-authorization/${id}/review`,
          { decision: 'approve', reviewer: 'Soak Reviewer' },
          this.tally,
        );
        return;
      }
      if (status && (FINAL_STATUSES as readonly string[]).includes(status)) return;
      await sleep(3_000);
    }
  }

  async burst(): Promise<void> {
    this.rateFactor = BURST_FACTOR;
    await sleep(MINUTE_MS);
    this.rateFactor = 1;
  }

  /**
   * The time from a fault's end until a text BV posted after it completes: a probe goes every 2 s (at
   * most MAX_PROBES outstanding), each polled once a second, and the first that completes marks the
   * stack healed.
   */
  async heal(fault: FaultOutcome): Promise<void> {
    const deadline = fault.endedAt! + 10 * MINUTE_MS;
    const probes = new Set<Promise<void>>();
    while (fault.healedAt === undefined && Date.now() < deadline) {
      if (probes.size < MAX_PROBES) {
        const probe: Promise<void> = this.probe(fault, deadline).finally(() => probes.delete(probe));
        probes.add(probe);
      }
      await sleep(2_000);
    }
    await Promise.all(probes);
  }

  private async probe(fault: FaultOutcome, deadline: number): Promise<void> {
    const { id } = await this.submit('probe');
    while (id && fault.healedAt === undefined && Date.now() < deadline) {
      const answer = await getPatiently(this.api, `/benefit-verification/${id}`, this.tally);
      if (answer?.body.data?.status === 'completed') {
        fault.healedAt ??= Date.now();
        return;
      }
      await sleep(1_000);
    }
  }

  async sample(minute: number): Promise<void> {
    this.samples.push({
      minute,
      at: Date.now(),
      processes: this.stack.processMemory(),
      machineBusy: machineBusySeconds(),
      eventLoopP99Ms: await eventLoopP99(this.stack),
      created: this.cases.length,
    });
  }
}

async function requestOf(kind: CaseKind): Promise<object> {
  switch (kind) {
    case 'bv_card':
      return cardBvRequest();
    case 'pa':
      return paWithNoteRequest();
    case 'ce':
      return ceWithNoteRequest();
    case 'enrollment':
      return enrollmentRequest();
    default:
      return bvRequest();
  }
}

/**
 * Each API process's event-loop delay p99 since the last scrape (prom-client resets it on each). The
 * workers' metrics are the Temporal SDK's, which have no event-loop figure.
 */
async function eventLoopP99(stack: BenchStack): Promise<Map<string, number>> {
  const delays = new Map<string, number>();
  for (const { name, url } of stack.metricsUrls) {
    try {
      const text = await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();
      const match = /^nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})? ([0-9.e+-]+)$/m.exec(text);
      if (match) delays.set(name, Number(match[1]) * 1000);
    } catch {
      // A process that is restarting has no figure this minute.
    }
  }
  return delays;
}

const pidsOf = (stack: BenchStack, label: string) =>
  stack
    .processMemory()
    .filter((process) => process.label === label)
    .map((process) => process.pid);

/** Sends `signal` to each process that still runs; true when any did. */
function signal(pids: number[], name: NodeJS.Signals): boolean {
  let reached = false;
  for (const pid of pids) {
    try {
      process.kill(pid, name);
      reached = true;
    } catch {
      // It ended since it was listed.
    }
  }
  return reached;
}

/** Kills one process of the kind, and resolves once its launcher has started another (a minute at most). */
const killOne =
  (label: string): Fault['inject'] =>
  async (run) => {
    const before = pidsOf(run.stack, label);
    if (!signal(before.slice(0, 1), 'SIGKILL')) return `no ${label} process to kill`;
    const deadline = Date.now() + MINUTE_MS;
    while (Date.now() < deadline) {
      const now = pidsOf(run.stack, label);
      if (now.length >= before.length && now.some((pid) => !before.includes(pid))) return 'replaced';
      await sleep(200);
    }
    return 'not replaced within a minute';
  };

/**
 * Stops every PostgreSQL process (the postmaster first, so it starts no new backend) for
 * POSTGRES_PAUSE_MS, then lets them all go on, whatever happened meanwhile.
 */
const pausePostgres: Fault['inject'] = async (run) => {
  const postmaster = pidsOf(run.stack, 'postgres').slice(0, 1);
  if (!signal(postmaster, 'SIGSTOP'))
    return 'no PostgreSQL process of ours (DATABASE_URL names another server)';
  const stopped = [...postmaster];
  run.tally.pauseStarts();
  try {
    const others = pidsOf(run.stack, 'postgres').filter((pid) => !stopped.includes(pid));
    signal(others, 'SIGSTOP');
    stopped.push(...others);
    await sleep(POSTGRES_PAUSE_MS);
  } finally {
    signal([...stopped].reverse(), 'SIGCONT');
    run.tally.pauseEnds();
  }
};

function faultsOf(shape: 'local' | 'cluster', minutes: number): Fault[] {
  const at = (share: number) => minutes * share;
  if (shape === 'local') return [{ name: 'kill -9 of the worker', at: at(0.5), inject: killOne('worker') }];
  return [
    { name: 'kill -9 of one worker', at: at(0.2), inject: killOne('worker') },
    { name: 'kill -9 of one API', at: at(0.3), inject: killOne('API') },
    {
      name: 'restart of the Temporal server',
      at: at(0.45),
      inject: (run) => (run.stack as ClusterStack).restartTemporal(),
    },
    { name: `PostgreSQL paused ${seconds(POSTGRES_PAUSE_MS)}`, at: at(0.6), inject: pausePostgres },
    { name: `burst at ${BURST_FACTOR}× the rate for a minute`, at: at(0.75), inject: (run) => run.burst() },
  ];
}

async function soakOn(shape: 'local' | 'cluster', stack: BenchStack, settings: SoakSettings): Promise<void> {
  const receiver = await FlakyReceiver.start();
  const run = new SoakRun(shape, stack, settings);
  let keepData = false;
  try {
    const endpointId = await subscribe(stack.api, receiver);
    const storedBefore = await stack.storedBytes();
    const started = Date.now();
    for (const fault of faultsOf(shape, settings.minutes)) {
      run.beside(
        fault.name,
        (async () => {
          await sleep(fault.at * MINUTE_MS);
          const outcome: FaultOutcome = { name: fault.name, startedAt: Date.now() };
          run.faults.push(outcome);
          outcome.note = (await fault.inject(run)) ?? undefined;
          outcome.endedAt = Date.now();
          await run.heal(outcome);
        })(),
      );
    }
    run.beside(
      'sampling',
      (async () => {
        for (let minute = 0; minute <= settings.minutes; minute += 1) {
          // A sample taken late, on a loaded machine, leaves the next one due already.
          await sleep(Math.max(0, started + minute * MINUTE_MS - Date.now()));
          await run.sample(minute);
        }
      })(),
    );
    await run.load(started + settings.minutes * MINUTE_MS);
    await run.settled();
    const drained = await drain(run);
    const events = await eventAccounting(
      (route) => getPatiently(run.api, route, run.tally),
      receiver,
      endpointId,
      { deadline: Date.now() + settings.drainMinutes * MINUTE_MS, pollMs: 10_000 },
    );
    report(run, receiver, drained, events, storedBefore, await stack.storedBytes());
    // An event lost or never fanned out is traced in the stack's own stores, so they outlive the run.
    keepData = events.lost.length > 0 || events.notFannedOut.length > 0 || drained.missing.length > 0;
  } finally {
    receiver.close();
    await stack.stop({ keepData });
  }
}

async function subscribe(api: Api, receiver: FlakyReceiver): Promise<string> {
  const created = await api('/webhooks', {
    method: 'POST',
    body: JSON.stringify({
      name: 'soak',
      url: receiver.url,
      secret: 'soak-secret-0123456789',
      events: CASE_EVENTS,
    }),
  });
  if (created.status !== 201) throw new Error(`POST /webhooks answered ${created.status}`);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  await api(`/webhooks/${id}`, { method: 'PATCH', body: JSON.stringify({ active: true }) });
  const deadline = Date.now() + MINUTE_MS;
  while (Date.now() < deadline) {
    const endpoint = (await (await api(`/webhooks/${id}`)).json()) as { data: { status: string } };
    if (endpoint.data.status === 'active') return id;
    await sleep(100);
  }
  throw new Error('The soak endpoint did not become active within a minute');
}

interface CaseStates {
  final: number;
  waiting: number;
  /** Cases not yet final or waiting when the drain ended, with their status. */
  unsettled: Array<{ kind: CaseKind; id: string; status: string }>;
  /** Cases the API acknowledged that it no longer knows. */
  missing: string[];
  /** Cases the integrator never got an id for. */
  unacknowledged: number;
  drainSeconds: number;
}

/** Waits until every case is final or waiting, or the drain's time is up, and says where each stands. */
async function drain(run: SoakRun): Promise<CaseStates> {
  const started = Date.now();
  const deadline = started + run.settings.drainMinutes * MINUTE_MS;
  let states = await caseStates(run);
  while (states.unsettled.length > 0 && Date.now() < deadline) {
    await sleep(5_000);
    states = await caseStates(run);
  }
  return { ...states, drainSeconds: (Date.now() - started) / 1000 };
}

async function caseStates(run: SoakRun): Promise<CaseStates> {
  const states: CaseStates = {
    final: 0,
    waiting: 0,
    unsettled: [],
    missing: [],
    unacknowledged: 0,
    drainSeconds: 0,
  };
  await withConcurrency(run.cases, 8, async (soakCase) => {
    if (!soakCase.id) {
      states.unacknowledged += 1;
      return;
    }
    const answer = await getPatiently(run.api, `${ROUTES[soakCase.kind]}/${soakCase.id}`, run.tally);
    const status = answer?.body.data?.status;
    if (answer?.status === 404) states.missing.push(soakCase.id);
    else if (status && (FINAL_STATUSES as readonly string[]).includes(status)) states.final += 1;
    else if (status && WAITING_STATUSES.includes(status)) states.waiting += 1;
    else states.unsettled.push({ kind: soakCase.kind, id: soakCase.id, status: status ?? 'no answer' });
  });
  return states;
}

function report(
  run: SoakRun,
  receiver: FlakyReceiver,
  cases: CaseStates,
  events: EventAccounting,
  storedBefore: Array<{ store: string; bytes: number }>,
  storedAfter: Array<{ store: string; bytes: number }>,
): void {
  const { settings, tally } = run;
  const posted = run.cases.filter((soakCase) => soakCase.kind !== 'probe').length;
  const failures = [...tally.connectionFailures.entries()]
    .map(([code, count]) => `${code} ${count}`)
    .join(', ');
  const lines = [
    `Soak on ${run.shape === 'local' ? 'local mode' : 'the cluster'}: ${settings.minutes} min, ${posted} cases and ` +
      `${run.cases.length - posted} heal probes posted`,
    `  cases: ${cases.final} final, ${cases.waiting} waiting (review, outcome), ${cases.unsettled.length} neither ` +
      `after a drain of ${cases.drainSeconds.toFixed(0)} s, ${cases.missing.length} unknown to the API (lost), ` +
      `${cases.unacknowledged} never acknowledged`,
    ...cases.unsettled.slice(0, 10).map((item) => `    unsettled ${item.kind} ${item.id}: ${item.status}`),
    ...cases.missing.slice(0, 10).map((id) => `    lost ${id}`),
    `  answers: ${Tally.describe(tally.answers)}`,
    `  connections refused or reset: ${failures || 'none'}; timed out ${tally.timeouts}; ` +
      `503 without Retry-After ${tally.unavailableWithoutRetryAfter}; 500s ${tally.served500()}`,
    ...(run.shape === 'cluster'
      ? [
          `  answers to requests that overlapped the PostgreSQL pause: ${Tally.describe(tally.answersDuringPause)}`,
        ]
      : []),
    ...tally.abandoned.slice(0, 10).map((line) => `    gave up: ${line}`),
    `  events: ${events.expected} for the endpoint, ${events.delivered} delivered at least once, ` +
      `${events.scheduled.length} scheduled for a later attempt, ${events.overdue.length} overdue, ` +
      `${events.lost.length} lost; ${events.duplicates} duplicate deliveries; ${events.notFannedOut.length} listed events ` +
      `without a delivery; the receiver failed ${receiver.failed} and was slow on ${receiver.slow}` +
      (events.complete ? '' : ' (a list did not come back whole: figures are partial)'),
    ...events.scheduled
      .slice(0, 10)
      .map(({ eventId, next }) => `    scheduled ${eventId}: next attempt ${next}`),
    ...events.overdue.slice(0, 10).map((id) => `    overdue ${id}`),
    ...events.lost.slice(0, 10).map((id) => `    lost event ${id}`),
    ...events.notFannedOut
      .slice(0, 10)
      .map(
        (event) =>
          `    no delivery for ${event.id} (${event.type}, created ${event.created_at}; ` +
          `the receiver ${receiver.acknowledged.has(event.id) ? 'acknowledged it' : 'never acknowledged it'})`,
      ),
    ...faultLines(run),
    ...minuteLines(run),
    ...growthLines(run),
    ...storageLines(storedBefore, storedAfter, run.cases.length),
    ...run.benchErrors.slice(0, 10).map((error) => `  bench error: ${error}`),
  ];
  console.log(`${lines.join('\n')}\n`);
}

function faultLines(run: SoakRun): string[] {
  return [
    '  faults (healed: a text BV posted after the fault ended has completed):',
    ...run.faults.map((fault) => {
      const lasted =
        fault.endedAt === undefined ? 'did not end' : `lasted ${seconds(fault.endedAt - fault.startedAt)}`;
      const healed =
        fault.healedAt === undefined || fault.endedAt === undefined
          ? 'not healed'
          : `healed in ${seconds(fault.healedAt - fault.endedAt)}`;
      return `    ${fault.name.padEnd(40)} ${lasted}, ${healed}${fault.note ? ` (${fault.note})` : ''}`;
    }),
  ];
}

/**
 * Each minute: cases posted, the machine's CPU, each Node process's RSS and CPU, PostgreSQL's PSS and
 * CPU together, and each API's event-loop delay p99.
 */
function minuteLines(run: SoakRun): string[] {
  const lines = [
    `  each minute: cases posted, machine CPU busy (of ${CORES} cores), then per process RSS MB / CPU % of one ` +
      'core (postgres: PSS of all its processes), event-loop p99 ms of each API',
  ];
  for (let index = 1; index < run.samples.length; index += 1) {
    const before = run.samples[index - 1]!;
    const sample = run.samples[index]!;
    const elapsed = (sample.at - before.at) / 1000;
    const busy = ((sample.machineBusy - before.machineBusy) / elapsed / CORES) * 100;
    const cpuThen = new Map(before.processes.map((process) => [process.pid, process.cpuSeconds]));
    const cpuOf = (process: ProcessMemory) =>
      ((process.cpuSeconds - (cpuThen.get(process.pid) ?? 0)) / elapsed) * 100;
    const postgres = sample.processes.filter((process) => process.label === 'postgres');
    const nodeProcesses = sample.processes
      .filter((process) =>
        ['worker', 'API', 'temporal', 'launcher', 'launcher (database)'].includes(process.label),
      )
      .map((process) => `${process.label} ${process.rssMb.toFixed(0)}/${cpuOf(process).toFixed(0)}`);
    if (postgres.length > 0) {
      const pss = postgres.reduce((sum, process) => sum + process.pssMb, 0);
      const cpu = postgres.reduce((sum, process) => sum + cpuOf(process), 0);
      nodeProcesses.push(`postgres ${pss.toFixed(0)}/${cpu.toFixed(0)}`);
    }
    const loops = [...sample.eventLoopP99Ms.entries()].map(([name, delay]) => `${name} ${delay.toFixed(0)}`);
    lines.push(
      `    ${String(sample.minute).padStart(3)}  ${String(sample.created - before.created).padStart(4)} cases  ` +
        `busy ${busy.toFixed(0).padStart(3)} %  ${nodeProcesses.join('  ')}  |  ${loops.join(' ') || 'n/a'}`,
    );
  }
  // Minute 0's scrape covers start-up.
  const delays = run.samples.slice(1).flatMap((sample) => [...sample.eventLoopP99Ms.values()]);
  if (delays.length) {
    lines.push(
      `  API event-loop p99 over the minutes: median ${percentile(delays, 50).toFixed(0)} ms, ` +
        `max ${Math.max(...delays).toFixed(0)} ms`,
    );
  }
  return lines;
}

/** Minutes of samples a process's level is the median of: one sample a minute can fall in a trough. */
const LEVEL_MINUTES = 3;

/**
 * Each process's RSS once warm (at the end of warm-up, or warm-up's length after a process that
 * started later first appeared) against its last, and its largest; a process that ended before the
 * soak did (killed, restarted) says when. One sample a minute may fall in a trough of the collector's
 * sawtooth (an API's RSS swung 153–177 MB from minute to minute), so two steadier measures follow:
 * its level (the median of LEVEL_MINUTES samples) once warm against its level at the end, and the
 * largest sample of the warm-up against the largest after it (a process that drifts raises its peaks).
 */
function growthLines(run: SoakRun): string[] {
  const warm = run.settings.warmUpMinutes;
  const lastMinute = run.samples[run.samples.length - 1]?.minute ?? 0;
  const byPid = new Map<number, { label: string; bornAt: number; minutes: number[]; rss: number[] }>();
  for (const sample of run.samples) {
    for (const process of sample.processes) {
      if (process.label === 'postgres') continue;
      const seen = byPid.get(process.pid) ?? {
        label: process.label,
        bornAt: sample.minute,
        minutes: [],
        rss: [],
      };
      seen.minutes.push(sample.minute);
      seen.rss.push(process.rssMb);
      byPid.set(process.pid, seen);
    }
  }
  const percent = (from: number, to: number) => {
    const growth = ((to - from) / from) * 100;
    return `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %`;
  };
  const median = (values: number[]) => percentile(values, 50);
  const lines = [
    `  RSS once warm (minute ${warm}, or ${warm} min after a later process appeared) → at its last sample, MB;` +
      ` then its level (median of ${LEVEL_MINUTES} samples) once warm → at the end, and the largest sample` +
      ' in warm-up → the largest after it:',
  ];
  for (const [pid, seen] of byPid) {
    const firstWarm = seen.minutes.findIndex((minute) => minute >= seen.bornAt + warm);
    if (firstWarm < 0) continue;
    const warmUp = seen.rss.slice(0, firstWarm);
    const after = seen.rss.slice(firstWarm);
    const [warmRss, last] = [after[0]!, after[after.length - 1]!];
    const lastSeen = seen.minutes[seen.minutes.length - 1]!;
    const ended = lastSeen < lastMinute ? `, ended after minute ${lastSeen}` : '';
    const [levelFrom, levelTo] = [median(after.slice(0, LEVEL_MINUTES)), median(after.slice(-LEVEL_MINUTES))];
    const level =
      after.length >= 2 * LEVEL_MINUTES
        ? `; level ${levelFrom.toFixed(0)} → ${levelTo.toFixed(0)} (${percent(levelFrom, levelTo)})`
        : '';
    const [warmUpPeak, warmPeak] = [Math.max(...warmUp), Math.max(...after)];
    const peaks = warmUp.length
      ? `; peaks ${warmUpPeak.toFixed(0)} → ${warmPeak.toFixed(0)} (${percent(warmUpPeak, warmPeak)})`
      : '';
    lines.push(
      `    ${`${seen.label} (${pid})`.padEnd(30)} ${warmRss.toFixed(0).padStart(5)} → ` +
        `${last.toFixed(0).padStart(5)}  (${percent(warmRss, last)}, largest ` +
        `${Math.max(...seen.rss).toFixed(0)}${ended}${level}${peaks})`,
    );
  }
  return lines;
}

function storageLines(
  before: Array<{ store: string; bytes: number }>,
  after: Array<{ store: string; bytes: number }>,
  cases: number,
): string[] {
  return [
    '  storage: size at the end, and its growth over the soak per case posted (probes included)',
    ...after.map(({ store, bytes }) => {
      const grown = bytes - (before.find((entry) => entry.store === store)?.bytes ?? 0);
      return (
        `    ${store.padEnd(34)} ${(bytes / 1024 / 1024).toFixed(1).padStart(8)} MB, ` +
        `${(grown / Math.max(cases, 1) / 1024).toFixed(1)} KiB a case`
      );
    }),
  ];
}
