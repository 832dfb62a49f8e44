import type { WorkflowStartOptions } from '@temporalio/client';

import type { CaseRecord } from '../../domain/cases/case-model';
import { decodePayload } from '../../infrastructure/temporal/sealed-memos';
import { getCaseQuery } from '../../workflows/case.messages';
import type { TestApp } from './test-app';

/**
 * What a case's run continued as new starts with (`continueAsNewIfLong`): the input its run started
 * with, the case as it stands and `carried`, under the same id, memo and search attributes. The
 * running run is terminated, so the test starts the continued one itself, on `taskQueue`: the case's
 * history never grows long enough in a test for the workflow to continue on its own.
 */
export async function continuedRunOf<Input extends { case: CaseRecord }>(
  testApp: TestApp,
  caseId: string,
  taskQueue: string,
  carried: Omit<Partial<Input>, 'case'>,
): Promise<WorkflowStartOptions> {
  const handle = testApp.temporalClient.workflow.getHandle(caseId);
  const { events } = await handle.fetchHistory();
  const [payload] = events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
  const input = await decodePayload<Input>(testApp.temporalClient.options.loadedDataConverter, payload!);
  const record = await handle.query(getCaseQuery);
  const { memo, typedSearchAttributes } = await handle.describe();
  await handle.terminate('The test continues this case as new itself.');
  return {
    workflowId: caseId,
    taskQueue,
    args: [{ ...input, ...carried, case: record }],
    memo,
    typedSearchAttributes,
  };
}
