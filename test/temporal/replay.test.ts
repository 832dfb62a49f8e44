import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

import { EncryptionCodec } from '../../infrastructure/temporal/encryption-codec';
import { workerDataConverter } from '../../infrastructure/temporal/temporal-connection';
import { WORKFLOW_INTERCEPTOR_MODULES } from '../../src/worker/worker';
import { REPLAY_FIXTURE_ENCRYPTION } from '../support/history';
import { PRODUCTION_WORKFLOWS } from '../support/workers';

const HISTORIES = path.join(__dirname, '..', 'fixtures', 'histories');
const recorded = readdirSync(HISTORIES).filter((file) => file.endsWith('.binpb'));

/**
 * A case's workflow id is its case id, which the recorded input holds; messages name the case they
 * are addressed to, so a case replays under its own id, as a worker replays it after an eviction.
 */
async function recordedCaseId(history: temporal.api.history.v1.IHistory): Promise<string | undefined> {
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  if (!payloads?.length) return undefined;
  const [input] = await new EncryptionCodec(REPLAY_FIXTURE_ENCRYPTION).decode(payloads);
  const caseId = defaultPayloadConverter.fromPayload<{ case?: { id?: unknown } }>(input!)?.case?.id;
  return typeof caseId === 'string' ? caseId : undefined;
}

/**
 * Recorded histories of every workflow, replayed against today's workflow code: a change that
 * would break running cases (non-determinism) fails here before it reaches a worker. Histories are
 * never recorded again: an incompatible change is guarded with `patched()` (workflows/patches.ts), and
 * a new generation of recordings is added beside the old ones.
 */
describe('replaying recorded histories against the current workflow code', () => {
  it('has recordings of every workflow the worker runs', () => {
    const workflowTypes = new Set(recorded.map((file) => file.split('--')[0]));
    expect([...workflowTypes].sort()).toEqual([
      'benefitVerificationWorkflow',
      'clinicalEligibilityWorkflow',
      'patientEnrollmentWorkflow',
      'priorAuthorizationWorkflow',
      'webhookActivationWorkflow',
      'webhookDeliveryWorkflow',
    ]);
  });

  it.each(recorded)('replays %s without non-determinism', async (file) => {
    const history = temporal.api.history.v1.History.decode(readFileSync(path.join(HISTORIES, file)));
    await Worker.runReplayHistory(
      {
        workflowsPath: PRODUCTION_WORKFLOWS,
        dataConverter: workerDataConverter(REPLAY_FIXTURE_ENCRYPTION),
        interceptors: { workflowModules: WORKFLOW_INTERCEPTOR_MODULES },
      },
      history,
      await recordedCaseId(history),
    );
  });
});
