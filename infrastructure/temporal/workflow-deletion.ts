import { Client, isGrpcServiceError, WorkflowNotFoundError } from '@temporalio/client';

const GRPC_NOT_FOUND = 5;

/** Temporal's answer for an execution (or anything else) it does not have, or no longer has. */
export const isNotFoundByTemporal = (error: unknown): boolean =>
  isGrpcServiceError(error) && error.code === GRPC_NOT_FOUND;
const STILL_THERE_CHECKS = 160;
const STILL_THERE_PAUSE_MS = 250;
/** Workflow ids the service issues (domain/ids.ts); nothing else is put into a visibility query. */
const OPAQUE_ID = /^[a-z]+_[0-9a-z]+$/;

/**
 * Deletes every run of a workflow, its history and its visibility record (DeleteWorkflowExecution),
 * and returns once `describe` no longer finds it, so a read right after answers 404. The runs the
 * current one continued from are deleted first, oldest first, and the current one last; a run already
 * gone counts as deleted, so a repeated call ends quietly. Throws (for the activity to retry) while Temporal still shows the
 * workflow.
 */
export async function deleteWorkflowRuns(
  client: Client,
  namespace: string,
  workflowId: string,
): Promise<void> {
  if (!OPAQUE_ID.test(workflowId)) throw new Error('Not a workflow id this service issues');
  const oldestFirst = (await runsOf(client, namespace, workflowId)).reverse();
  // Without a run id, whatever run is current by now, should one have begun since.
  for (const runId of [...oldestFirst, undefined]) {
    await client.workflowService
      .deleteWorkflowExecution({ namespace, workflowExecution: { workflowId, runId } })
      .catch((error: unknown) => {
        if (!isNotFoundByTemporal(error)) throw error;
      });
  }
  // Temporal deletes asynchronously, once its transfer queue has saved the close task as done, which it
  // does every history.transferProcessorUpdateAckInterval (1 s on the dev server, 5 s in
  // deploy/temporal). Up to 40 s here, within the activity's minute, before a retry asks again.
  for (let check = 0; check < STILL_THERE_CHECKS; check++) {
    if (!(await workflowExists(client, workflowId))) return;
    await new Promise((resolve) => setTimeout(resolve, STILL_THERE_PAUSE_MS));
  }
  throw new Error(`Workflow ${workflowId} is still being deleted`);
}

/**
 * The workflow's run ids, newest first. The chain back from the current run comes from each run's
 * first event, which names the run it continued from: visibility lists a run only a moment after it
 * closes, so a case erased just after it continued as new would have kept its earlier run, patient
 * data and all. Visibility's list adds runs the chain no longer reaches, where an earlier call
 * deleted the current run and stopped.
 */
async function runsOf(client: Client, namespace: string, workflowId: string): Promise<string[]> {
  const chain: string[] = [];
  let runId = await currentRunOf(client, namespace, workflowId);
  while (runId !== undefined && !chain.includes(runId)) {
    chain.push(runId);
    runId = await runContinuedFrom(client, namespace, workflowId, runId);
  }
  const listed = await client.workflowService.listWorkflowExecutions({
    namespace,
    query: `WorkflowId = '${workflowId}'`,
  });
  const visible = (listed.executions ?? []).flatMap((execution) => execution.execution?.runId ?? []);
  return [...new Set([...chain, ...visible])];
}

async function currentRunOf(
  client: Client,
  namespace: string,
  workflowId: string,
): Promise<string | undefined> {
  const described = await unlessGone(
    client.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId } }),
  );
  return described?.workflowExecutionInfo?.execution?.runId || undefined;
}

async function runContinuedFrom(
  client: Client,
  namespace: string,
  workflowId: string,
  runId: string,
): Promise<string | undefined> {
  const firstPage = await unlessGone(
    client.workflowService.getWorkflowExecutionHistory({
      namespace,
      execution: { workflowId, runId },
      maximumPageSize: 1,
    }),
  );
  const started = firstPage?.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  return started?.continuedExecutionRunId || undefined;
}

/** What Temporal answers, or undefined where it no longer has what was asked for. */
async function unlessGone<T>(answer: Promise<T>): Promise<T | undefined> {
  try {
    return await answer;
  } catch (error) {
    if (isNotFoundByTemporal(error)) return undefined;
    throw error;
  }
}

/** Whether Temporal still holds any run of the workflow. */
export async function workflowExists(client: Client, workflowId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
