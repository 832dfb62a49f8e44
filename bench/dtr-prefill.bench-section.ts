import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { EvaluationPool } from '../infrastructure/clinical/evaluation-pool';
import { questionnairePackage } from '../infrastructure/connectors/dtr/simulated-dtr-service';
import type { FhirBundle } from '../infrastructure/dtr/cql-prefill';
import { patientRecordBundle } from '../infrastructure/dtr/patient-record';
import { readQuestionnairePackage } from '../infrastructure/dtr/questionnaire-package';
import type { QuestionnairePackage } from '../infrastructure/dtr/questionnaire-package';
import { projectRoot } from '../infrastructure/project-root';
import { paMeetingCriteriaRequest } from './bench-requests';
import { ms, percentile } from './support';

const RUNS = Number(process.env.BENCH_DTR_RUNS ?? 20);
const INFERNO = path.join(projectRoot(), 'test', 'fixtures', 'dtr', 'inferno');

/**
 * Prefilling a payer's DTR package in the worker's clinical evaluation pool, as a prior authorization
 * does: the sandbox's Ozempic package over the bench's record, and Inferno's respiratory-assist-device
 * package over its pat015 bundle (test/fixtures/dtr/inferno, data we did not make). One task at a time
 * after one warm-up per package, so the figures are the CQL's, not a thread's first load.
 */
export async function dtrPrefillLatency(): Promise<string[]> {
  const pool = new EvaluationPool({ threads: 1, taskTimeoutMs: 10_000 });
  try {
    const sandbox = sandboxOzempic();
    const inferno = {
      pkg: readQuestionnairePackage(readJson(path.join(INFERNO, 'questionnaire_package.json'))),
      record: readJson(path.join(INFERNO, 'pat015_bundle.json')) as FhirBundle,
      now: '2024-04-07T18:32:03.440Z',
      // The order the kit's expected response is about, as CRD's context would name it.
      context: ['DeviceRequest/devreqe0470'],
    };
    const lines = [`DTR prefill in the clinical evaluation pool (${RUNS} each, one thread, warm)`];
    for (const [label, run] of [
      ['sandbox Ozempic package          ', sandbox],
      ["Inferno's respiratory assist device", inferno],
    ] as const) {
      const prefill = () =>
        pool.run({
          kind: 'dtr_prefill' as const,
          package: run.pkg,
          patientRecord: run.record,
          now: run.now,
          ...('context' in run ? { context: run.context } : {}),
        });
      const started = performance.now();
      const first = await prefill();
      const firstMs = performance.now() - started;
      const times: number[] = [];
      for (let index = 0; index < RUNS; index += 1) {
        const at = performance.now();
        await prefill();
        times.push(performance.now() - at);
      }
      const answered = first.items.filter((item) => item.origin === 'auto').length;
      lines.push(
        `  ${label}  p50 ${ms(percentile(times, 50))}   p99 ${ms(percentile(times, 99))}   first ${ms(firstMs)}   (${answered} items answered)`,
      );
    }
    return lines;
  } finally {
    await pool.close();
  }
}

function sandboxOzempic(): { pkg: QuestionnairePackage; record: FhirBundle; now: string } {
  const served = questionnairePackage(
    'http://sandbox.healthcare-access-api.example/fhir/Questionnaire/ozempic',
  );
  if (served.kind !== 'found') throw new Error('The sandbox serves no Ozempic package');
  const now = new Date();
  const request = { questionnaires: [], ...paMeetingCriteriaRequest() } as unknown as Parameters<
    typeof patientRecordBundle
  >[0];
  return {
    pkg: readQuestionnairePackage(served.parameters),
    record: patientRecordBundle(request, null, { caseId: 'pa_bench', now }) as FhirBundle,
    now: now.toISOString(),
  };
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}
