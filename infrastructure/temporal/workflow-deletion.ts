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
 * and returns once `describe` no longer finds it, so a read right after answers 404. Runs a case
 * continued as new are found through visibility; a run already gone counts as deleted, so a repeated
 * call ends quietly. Throws (for the activity to retry) while Temporal still shows the workflow.
 */
export async function deleteWorkflowRuns(
  client: Client,
  namespace: string,
  workflowId: string,
): Promise<void> {
  if (!OPAQUE_ID.test(workflowId)) throw new Error('Not a workflow id this service issues');
  const listed = await client.workflowService.listWorkflowExecutions({
    namespace,
    query: `WorkflowId = '${workflowId}'`,
  });
  const runIds = (listed.executions ?? []).map((execution) => execution.execution?.runId ?? undefined);
  for (const runId of [undefined, ...runIds]) {
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
