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
 * and returns once Temporal holds none of them, so a read right after answers 404. The runs the
 * current one came from are deleted first and the current one last, so a call cut short finds the
 * rest again from it; a run already gone counts as deleted, so a repeated call ends quietly. Throws
 * (for the activity to retry) while Temporal still shows a run.
 */
export async function deleteWorkflowRuns(
  client: Client,
  namespace: string,
  workflowId: string,
): Promise<void> {
  if (!OPAQUE_ID.test(workflowId)) throw new Error('Not a workflow id this service issues');
  const currentLast = (await runsOf(client, namespace, workflowId)).reverse();
  // Without a run id, whatever run is current by now, should one have begun since.
  for (const runId of [...currentLast, undefined]) {
    await unlessGone(
      client.workflowService.deleteWorkflowExecution({ namespace, workflowExecution: { workflowId, runId } }),
    );
  }
  // Temporal deletes asynchronously, once its transfer queue has saved the close task as done, which
  // it does every history.transferProcessorUpdateAckInterval (1 s on the dev server, 5 s in
  // deploy/temporal). Up to 40 s here, within the activity's minute, before a retry asks again.
  for (let check = 0; check < STILL_THERE_CHECKS; check++) {
    if (!(await anyRunHeld(client, namespace, workflowId, currentLast))) return;
    await new Promise((resolve) => setTimeout(resolve, STILL_THERE_PAUSE_MS));
  }
  throw new Error(`Workflow ${workflowId} is still being deleted`);
}

/**
 * The workflow's run ids, the current one first. From it, each run's first event names the runs
 * it came from: the run it continued from, and for a run a Reset made, the run reset and the chain's
 * first. Visibility lists a run only a moment after it closes, so a case erased just after it
 * continued as new would have kept its earlier run, patient data and all. Visibility's list adds the
 * runs no first event names any longer (an earlier call deleted the current run and stopped).
 */
async function runsOf(client: Client, namespace: string, workflowId: string): Promise<string[]> {
  const found: string[] = [];
  const current = await currentRunOf(client, namespace, workflowId);
  const toRead = current === undefined ? [] : [current];
  while (toRead.length > 0) {
    const runId = toRead.shift()!;
    if (found.includes(runId)) continue;
    found.push(runId);
    toRead.push(...(await runsNamedBy(client, namespace, workflowId, runId)));
  }
  const listed = await client.workflowService.listWorkflowExecutions({
    namespace,
    query: `WorkflowId = '${workflowId}'`,
  });
  const visible = (listed.executions ?? []).flatMap((execution) => execution.execution?.runId ?? []);
  return [...new Set([...found, ...visible])];
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

/** How many empty pages the history's first event may follow, as a server may answer before it. */
const FIRST_EVENT_PAGES = 5;

/** The other runs a run's first event names; none for a run already gone. */
async function runsNamedBy(
  client: Client,
  namespace: string,
  workflowId: string,
  runId: string,
): Promise<string[]> {
  let nextPageToken: Uint8Array | undefined;
  for (let page = 0; page < FIRST_EVENT_PAGES; page++) {
    const answer = await unlessGone(
      client.workflowService.getWorkflowExecutionHistory({
        namespace,
        execution: { workflowId, runId },
        maximumPageSize: 1,
        nextPageToken,
      }),
    );
    const first = answer?.history?.events?.[0];
    if (first) {
      const started = first.workflowExecutionStartedEventAttributes ?? {};
      const named = [
        started.continuedExecutionRunId,
        started.originalExecutionRunId,
        started.firstExecutionRunId,
      ];
      return named.filter((other): other is string => !!other && other !== runId);
    }
    if (!answer?.nextPageToken?.length) break;
    nextPageToken = answer.nextPageToken;
  }
  // Visibility's list is left to find what this run came from.
  return [];
}

/** Whether Temporal still holds the workflow's current run, or any of these. */
async function anyRunHeld(
  client: Client,
  namespace: string,
  workflowId: string,
  runIds: readonly string[],
): Promise<boolean> {
  if (await workflowExists(client, workflowId)) return true;
  for (const runId of runIds) {
    const described = await unlessGone(
      client.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId, runId } }),
    );
    if (described) return true;
  }
  return false;
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
