import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';

import { ApplicationFailure } from '@temporalio/common';
import pino from 'pino';

import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../../domain/clinical/criteria-evaluation';
import {
  CLINICAL_EVALUATION_DEADLINE_PASSED,
  CLINICAL_EVALUATION_TIMED_OUT,
  CLINICAL_EVALUATION_UNAVAILABLE,
} from '../../domain/failures';
import { EvaluationPool } from '../../infrastructure/clinical/evaluation-pool';
import { AS_OF, NO_PLAN } from './synthetic-records';
import { shippedClinicalCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

const THREADS = path.join(__dirname, '..', 'fixtures', 'threads');
const STALLING_THREAD = path.join(THREADS, 'stalling-evaluation-thread.js');
const SLOW_STARTING_THREAD = path.join(THREADS, 'slow-starting-evaluation-thread.js');
const NEVER_READY_THREAD = path.join(THREADS, 'never-ready-evaluation-thread.js');
const FAILING_TO_LOAD_THREAD = path.join(THREADS, 'failing-to-load-evaluation-thread.js');
const COMPILED_POOL = path.join(
  __dirname,
  '..',
  '..',
  'dist',
  'infrastructure',
  'clinical',
  'evaluation-pool.js',
);

function record(note: string): ClinicalRecord {
  return {
    patient: { date_of_birth: '1970-05-01', gender: 'female' },
    asOf: AS_OF,
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    diagnoses: [{ code: 'E11.9' }],
    questionnaires: [],
    visitNotes: [{ content: note, created_at: `${AS_OF}T09:00:00Z` }],
    evidence: [],
  };
}

describe('the clinical evaluation pool', () => {
  let pool: EvaluationPool;
  afterEach(() => pool.close());

  it('answers a check in a worker thread exactly as the engine answers it inline', async () => {
    pool = new EvaluationPool({ threads: 2, taskTimeoutMs: 10_000 });
    const checked = record('Metformin 1000 mg twice daily for 6 months, inadequate response. A1c 8.2 %.');
    const answer = await pool.run({ kind: 'clinical_eligibility', record: checked });
    expect(answer).toEqual(evaluateClinicalEligibility(checked, NO_PLAN, shippedClinicalCatalog()));
  });

  it('fails a task over its time limit with the named non-retryable failure, quoting nothing of the record', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 300 }, { entry: STALLING_THREAD });
    const failure = await pool.run({ kind: 'clinical_eligibility', record: record('stall') }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: CLINICAL_EVALUATION_TIMED_OUT, nonRetryable: true });
    expect(failure.message).toMatch(/took longer than the 300-millisecond limit/);
    expect(failure.message).not.toMatch(/stall/);
  });

  it('replaces a thread stopped at the time limit, so the next task is answered', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 1_000 }, { entry: STALLING_THREAD });
    const stalled = pool.run({ kind: 'clinical_eligibility', record: record('stall') }).catch((e) => e);
    const next = pool.run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') });
    expect(await stalled).toMatchObject({ type: CLINICAL_EVALUATION_TIMED_OUT });
    expect((await next).results.map((result) => result.drug)).toEqual(['Ozempic']);
  });

  it("does not count a fresh thread's start-up against its first task's time limit", async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 500 }, { entry: SLOW_STARTING_THREAD });
    const answer = await pool.run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') });
    expect(answer.results.map((result) => result.drug)).toEqual(['Ozempic']);
  });

  it('drops a task still queued at its deadline with a retryable failure, without waiting for a thread', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 1_000 }, { entry: STALLING_THREAD });
    let stalledSettled = false;
    const stalled = pool
      .run({ kind: 'clinical_eligibility', record: record('stall') })
      .catch((e) => e)
      .finally(() => (stalledSettled = true));
    const queued = pool
      .run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') }, { deadline: Date.now() + 200 })
      .catch((e) => e);
    const failure = await queued;
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: CLINICAL_EVALUATION_DEADLINE_PASSED, nonRetryable: false });
    expect(failure.message).toMatch(/was not run/);
    // The only thread was still stalled: the dropped task never reached one.
    expect(stalledSettled).toBe(false);
    expect(await stalled).toMatchObject({ type: CLINICAL_EVALUATION_TIMED_OUT });
  });

  it('stops a task still running at its deadline with a retryable failure, before its time limit, and answers the next', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 }, { entry: STALLING_THREAD });
    const failure = await pool
      .run({ kind: 'clinical_eligibility', record: record('stall') }, { deadline: Date.now() + 300 })
      .catch((e) => e);
    expect(failure).toMatchObject({ type: CLINICAL_EVALUATION_DEADLINE_PASSED, nonRetryable: false });
    const next = await pool.run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') });
    expect(next.results.map((result) => result.drug)).toEqual(['Ozempic']);
  });

  it('logs a timeout with the task kind and never the record', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    pool = new EvaluationPool(
      { threads: 1, taskTimeoutMs: 300 },
      { entry: STALLING_THREAD, logger: pino({ level: 'info' }, sink) },
    );
    await pool.run({ kind: 'clinical_eligibility', record: record('stall') }).catch(() => undefined);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([
      expect.objectContaining({
        kind: 'clinical_eligibility',
        limitMs: 300,
        msg: expect.stringMatching(/time limit/),
      }),
    ]);
    expect(lines.join('')).not.toMatch(/stall|Ozempic|E11/);
  });

  const UNAVAILABLE = { type: CLINICAL_EVALUATION_UNAVAILABLE, nonRetryable: false };

  it('fails queued work retryably when no thread can start', async () => {
    // A bare relative path is one Node refuses before any thread starts.
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 }, { entry: 'evaluation-thread.js' });
    const failure = await pool
      .run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') })
      .catch((e) => e);
    expect(failure).toMatchObject(UNAVAILABLE);
  });

  it('fails queued work retryably when a thread fails as it loads, before it is ready', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 }, { entry: FAILING_TO_LOAD_THREAD });
    const failure = await pool
      .run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') })
      .catch((e) => e);
    expect(failure).toMatchObject(UNAVAILABLE);
    expect(failure.message).toBe('A clinical evaluation thread could not start; the task was not run.');
  });

  it('fails queued work retryably when a thread is not ready within its start limit', async () => {
    pool = new EvaluationPool(
      { threads: 1, taskTimeoutMs: 10_000 },
      { entry: NEVER_READY_THREAD, startLimitMs: 300 },
    );
    const failure = await pool
      .run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') })
      .catch((e) => e);
    expect(failure).toMatchObject(UNAVAILABLE);
  });

  it('keeps a process that waits on it alive until its task is answered, and lets it end once idle', async () => {
    const script = `
      const { EvaluationPool } = require(${JSON.stringify(COMPILED_POOL)});
      new EvaluationPool({ threads: 1, taskTimeoutMs: 10000 })
        .run({ kind: 'clinical_eligibility', record: ${JSON.stringify(record('A1c 8.2 %.'))} })
        .then((answer) => console.log(answer.results.map((result) => result.drug).join()));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('Ozempic');
  });

  it('refuses work once closed', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 });
    await pool.close();
    await expect(pool.run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') })).rejects.toThrow(
      'closed',
    );
  });
});
