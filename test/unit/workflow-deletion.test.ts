import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';

import { deleteWorkflowRuns } from '../../infrastructure/temporal/workflow-deletion';

const WORKFLOW_ID = 'penr_01jcontinued';

interface Run {
  runId: string;
  /** What the run's WorkflowExecutionStarted event names. */
  started: {
    continuedExecutionRunId?: string;
    originalExecutionRunId?: string;
    firstExecutionRunId?: string;
  };
}

const notFound = () => Object.assign(new Error('not found'), { code: 5, details: 'not found', metadata: {} });

/**
 * One workflow's runs as Temporal's service answers for them, the last run current, with a visibility
 * list that lists only the runs given: Temporal's visibility trails a run's close by a moment.
 */
function temporalHolding(runs: Run[], visible: string[]) {
  const held = new Map(runs.map((run) => [run.runId, run]));
  const current = () => (held.has(runs.at(-1)!.runId) ? runs.at(-1)!.runId : undefined);
  const deleted: Array<string | undefined> = [];
  const runOf = (runId?: string) => {
    const id = runId ?? current();
    if (id === undefined || !held.has(id)) throw notFound();
    return held.get(id)!;
  };
  const workflowService = {
    describeWorkflowExecution: async ({ execution }: { execution: { runId?: string } }) => ({
      workflowExecutionInfo: { execution: { workflowId: WORKFLOW_ID, runId: runOf(execution.runId).runId } },
    }),
    getWorkflowExecutionHistory: async ({ execution }: { execution: { runId: string } }) => ({
      history: { events: [{ workflowExecutionStartedEventAttributes: runOf(execution.runId).started }] },
    }),
    listWorkflowExecutions: async () => ({
      executions: visible
        .filter((runId) => held.has(runId))
        .map((runId) => ({ execution: { workflowId: WORKFLOW_ID, runId } })),
    }),
    deleteWorkflowExecution: async ({ workflowExecution }: { workflowExecution: { runId?: string } }) => {
      const run = runOf(workflowExecution.runId);
      deleted.push(workflowExecution.runId);
      held.delete(run.runId);
      return {};
    },
  };
  const workflow = {
    getHandle: () => ({
      describe: async () => {
        if (current() === undefined) throw new WorkflowNotFoundError('gone', WORKFLOW_ID, undefined);
        return {};
      },
    }),
  };
  return { client: { workflowService, workflow } as unknown as Client, held, deleted };
}

describe('deleting a workflow', () => {
  it('deletes the run it continued from that visibility does not list yet, before the current run', async () => {
    const temporal = temporalHolding(
      [
        { runId: 'run-1', started: { firstExecutionRunId: 'run-1' } },
        { runId: 'run-2', started: { continuedExecutionRunId: 'run-1', firstExecutionRunId: 'run-1' } },
      ],
      ['run-2'],
    );

    await deleteWorkflowRuns(temporal.client, 'default', WORKFLOW_ID);

    expect([...temporal.held.keys()]).toEqual([]);
    expect(temporal.deleted).toEqual(['run-1', 'run-2']);
  });

  it('deletes the run a Reset replaced, which its new run names only as the run reset', async () => {
    const temporal = temporalHolding(
      [
        { runId: 'run-1', started: { firstExecutionRunId: 'run-1' } },
        { runId: 'run-2', started: { originalExecutionRunId: 'run-1', firstExecutionRunId: 'run-1' } },
      ],
      [],
    );

    await deleteWorkflowRuns(temporal.client, 'default', WORKFLOW_ID);

    expect([...temporal.held.keys()]).toEqual([]);
  });

  it('deletes the runs only visibility still lists, where an earlier call deleted the current run', async () => {
    const temporal = temporalHolding(
      [
        { runId: 'run-1', started: {} },
        { runId: 'run-2', started: { continuedExecutionRunId: 'run-1' } },
      ],
      ['run-1', 'run-2'],
    );
    temporal.held.delete('run-2');

    await deleteWorkflowRuns(temporal.client, 'default', WORKFLOW_ID);

    expect([...temporal.held.keys()]).toEqual([]);
  });
});
