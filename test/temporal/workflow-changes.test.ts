import { ReplayResult, Worker } from '@temporalio/worker';

import { workerDataConverter } from '../../infrastructure/temporal/temporal-connection';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../src/worker/worker';
import { REPLAY_FIXTURE_ENCRYPTION } from '../support/history';
import { readRecordedHistory, recordedWorkflowId, recordedHistoryFiles } from '../support/recorded-histories';

const CHANGED_WORKFLOWS = {
  unguarded: require.resolve('../fixtures/workflows-incompatible/timer-unguarded'),
  guarded: require.resolve('../fixtures/workflows-incompatible/timer-patched'),
};
const benefitVerifications = recordedHistoryFiles().filter((file) =>
  file.startsWith('benefitVerificationWorkflow--'),
);

/** Every recorded benefit verification, replayed through the real replayer against `workflowsPath`. */
async function replayBenefitVerifications(workflowsPath: string): Promise<Map<string, ReplayResult>> {
  const histories = await Promise.all(
    benefitVerifications.map(async (file) => {
      const history = readRecordedHistory(file);
      return { file, history, workflowId: (await recordedWorkflowId(history))! };
    }),
  );
  const results = new Map<string, ReplayResult>();
  const replayed = Worker.runReplayHistories(
    {
      workflowsPath,
      dataConverter: workerDataConverter(REPLAY_FIXTURE_ENCRYPTION),
      interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
    },
    histories,
  );
  for await (const result of replayed) {
    results.set(histories.find((entry) => entry.workflowId === result.workflowId)!.file, result);
  }
  return results;
}

/**
 * The replay test is only evidence if it fails on the change it exists to catch. A timer added in
 * front of benefit verification, the kind of change a deploy meets running cases with, breaks
 * every recorded run without a patch and none with one.
 */
describe('changing a workflow against its recorded histories', () => {
  it('has recorded benefit verifications to replay', () => {
    expect(benefitVerifications.length).toBeGreaterThan(0);
  });

  it('fails every recorded run with a non-determinism error when the change is not patched', async () => {
    const results = await replayBenefitVerifications(CHANGED_WORKFLOWS.unguarded);
    expect([...results.keys()].sort()).toEqual([...benefitVerifications].sort());
    const errors = [...results.values()].map((result) => result.error?.name);
    expect(errors).toEqual(benefitVerifications.map(() => 'DeterminismViolationError'));
  });

  it('replays every recorded run cleanly when the same change is guarded with patched()', async () => {
    const results = await replayBenefitVerifications(CHANGED_WORKFLOWS.guarded);
    expect([...results.keys()].sort()).toEqual([...benefitVerifications].sort());
    const failures = [...results.entries()].filter(([, result]) => result.error);
    expect(failures.map(([file, result]) => `${file}: ${result.error?.message}`)).toEqual([]);
  });
});
