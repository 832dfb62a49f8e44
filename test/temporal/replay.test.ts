import { Worker } from '@temporalio/worker';

import { workerDataConverter } from '../../infrastructure/temporal/temporal-connection';
import { testEnvironment } from '../harness/environment';
import { REPLAY_FIXTURE_ENCRYPTION } from '../support/history';
import {
  readManifest,
  readRecordedHistory,
  recordedWorkflowId,
  recordedHistoryFiles,
  sha256Of,
} from '../support/recorded-histories';

const recorded = recordedHistoryFiles();

/**
 * Recorded histories of every workflow, replayed against today's workflow code: a change that
 * would break running cases (non-determinism) fails here before it reaches a worker. Histories are
 * never recorded again: an incompatible change is guarded with `patched()` (workflows/patches.ts), and
 * a new generation of recordings is added beside the old ones (docs/workflows.md, "Changing a workflow").
 */
describe('replaying recorded histories against the current workflow code', () => {
  it('has recordings of every workflow the worker runs', () => {
    const workflowTypes = new Set(recorded.map((file) => file.split('--')[0]));
    expect([...workflowTypes].sort()).toEqual([
      'benefitVerificationWorkflow',
      'caseRetentionWorkflow',
      'clinicalEligibilityWorkflow',
      'patientEnrollmentWorkflow',
      'patientErasureWorkflow',
      'priorAuthorizationWorkflow',
      'providerAuthorizationWorkflow',
      'webhookActivationWorkflow',
      'webhookDeliveryWorkflow',
    ]);
  });

  it('still holds every history the manifest lists', () => {
    const missing = Object.keys(readManifest()).filter((file) => !recorded.includes(file));
    expect(missing).toEqual([]);
  });

  it('holds each recorded history byte for byte as it was recorded', () => {
    const rewritten = Object.entries(readManifest())
      .filter(([file, sha256]) => recorded.includes(file) && sha256Of(file) !== sha256)
      .map(([file]) => file);
    expect(rewritten).toEqual([]);
  });

  it('lists every recorded history in the manifest', () => {
    const manifest = readManifest();
    expect(recorded.filter((file) => manifest[file] === undefined)).toEqual([]);
  });

  /**
   * Every recording replayed on one replay worker, which loads the bundle once (a worker per
   * recording spent most of a minute making workers): each history still replays alone, evicted
   * before the next, and each answers for itself below.
   */
  const replayErrors = new Map<string, unknown>();
  beforeAll(async () => {
    async function* histories() {
      for (const file of recorded) {
        const history = readRecordedHistory(file);
        // 'fake' is the id the SDK's single-history replay gives a history that names none.
        yield { history, workflowId: (await recordedWorkflowId(history)) ?? 'fake' };
      }
    }
    let index = 0;
    for await (const { error } of Worker.runReplayHistories(
      {
        // The bundle production workers load, with its interceptors, built once for the whole run.
        workflowBundle: { codePath: testEnvironment().workflowBundlePath },
        dataConverter: workerDataConverter(REPLAY_FIXTURE_ENCRYPTION),
      },
      histories(),
    )) {
      replayErrors.set(recorded[index++]!, error);
    }
  }, 300_000);

  it.each(recorded)('replays %s without non-determinism', (file) => {
    expect(replayErrors.has(file)).toBe(true);
    const error = replayErrors.get(file);
    if (error) throw error;
  });
});
