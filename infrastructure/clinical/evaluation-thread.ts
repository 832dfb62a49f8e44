import { parentPort } from 'node:worker_threads';

import { primeCqlPrefill } from '../dtr/cql-prefill';
import { runEvaluationTask } from './evaluation-tasks';
import type { EvaluationTask } from './evaluation-tasks';

/**
 * A pool thread (see evaluation-pool.ts): says it is ready once its engines are loaded, then takes one
 * task at a time and answers with its result, or with the error's name only, since an error message
 * about clinical text could quote it.
 */
async function answer(message: { id: number; task: EvaluationTask }): Promise<void> {
  try {
    parentPort?.postMessage({ id: message.id, result: await runEvaluationTask(message.task) });
  } catch (error) {
    parentPort?.postMessage({ id: message.id, error: error instanceof Error ? error.name : 'Error' });
  }
}

parentPort?.on('message', (message: { id: number; task: EvaluationTask }) => void answer(message));
try {
  primeCqlPrefill();
} catch {
  // The criteria checks never need it; the first prefill parses the model info itself.
}
parentPort?.postMessage({ ready: true });
