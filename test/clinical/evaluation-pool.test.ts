import * as path from 'node:path';

import { ApplicationFailure } from '@temporalio/common';

import type { ClinicalRecord } from '../../src/clinical/clinical-model';
import { CLINICAL_EVALUATION_TIMED_OUT } from '../../src/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../../src/clinical/criteria-engine';
import { EvaluationPool } from '../../src/clinical/evaluation-pool';
import { AS_OF } from './synthetic-records';

const STALLING_THREAD = path.join(__dirname, '..', 'fixtures', 'threads', 'stalling-evaluation-thread.js');

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
    expect(answer).toEqual(evaluateClinicalEligibility(checked));
  });

  it('fails a task over its time limit with the named non-retryable failure, quoting nothing of the record', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 300 }, STALLING_THREAD);
    const failure = await pool.run({ kind: 'clinical_eligibility', record: record('stall') }).catch((e) => e);
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: CLINICAL_EVALUATION_TIMED_OUT, nonRetryable: true });
    expect(failure.message).toMatch(/took longer than the 300-millisecond limit/);
    expect(failure.message).not.toMatch(/stall/);
  });

  it('replaces a thread stopped at the time limit, so the next task is answered', async () => {
    // Generous: the replacement thread's start counts against the next task's limit.
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 3_000 }, STALLING_THREAD);
    const stalled = pool.run({ kind: 'clinical_eligibility', record: record('stall') }).catch((e) => e);
    const next = pool.run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') });
    expect(await stalled).toMatchObject({ type: CLINICAL_EVALUATION_TIMED_OUT });
    expect((await next).results.map((result) => result.drug)).toEqual(['Ozempic']);
  });

  it('refuses work once closed', async () => {
    pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 });
    await pool.close();
    await expect(pool.run({ kind: 'clinical_eligibility', record: record('A1c 8.2 %.') })).rejects.toThrow(
      'closed',
    );
  });
});
