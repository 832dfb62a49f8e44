import { Client, WorkflowNotFoundError, WorkflowStartOptions } from '@temporalio/client';
import { UpdateDefinition, Workflow } from '@temporalio/common';

import type { CaseBinding } from '../../domain/cases/case-binding';
import type { CaseRecord } from '../../domain/cases/case-model';
import { BINDING_MEMO_KEY, caseFromMemo, memoAtStart } from '../../domain/temporal/case-memo';
import type { CaseMemo } from '../../domain/temporal/case-memo';
import { ACCOUNT_ID, CASE_STATUS, CASE_TYPE, PATIENT_REF } from '../../domain/temporal/search-attributes';
import type { TemporalSettings } from '../../infrastructure/config/config';
import { sealedByUs } from '../../infrastructure/temporal/sealed-memos';
import type { CaseType, WorkflowInput } from './case-type';

/** A case's workflow as its memo and search attributes show it. */
export interface CaseExecution {
  caseId: string;
  startTime: Date;
  accountId?: string;
  object?: string;
  /** Whether every memo field is sealed with our payload codec; an unsealed memo is never read. */
  sealedByUs: boolean;
  record: CaseRecord;
  /** The API's proof that it started this case for this account; absent on cases older than bindings. */
  binding: unknown;
}

/** Every Temporal client call the API makes for cases; `CasesService` holds the rules around them. */
export class CaseWorkflows {
  constructor(
    private readonly client: Client,
    private readonly settings: Pick<TemporalSettings, 'namespace' | 'taskQueue'>,
  ) {}

  async start<W extends Workflow, Request extends object>(
    type: CaseType<W, Request>,
    input: WorkflowInput<W> & { binding: CaseBinding },
    patientRef: string,
  ): Promise<void> {
    // The SDK's options type for a generic W is a conditional TypeScript cannot resolve here; W still
    // types the input, so each case type's module is checked against its workflow's signature.
    const options: WorkflowStartOptions = {
      workflowId: input.case.id,
      taskQueue: this.settings.taskQueue,
      args: [input],
      // A replayed request finds the workflow its first attempt started, running or not.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      memo: memoAtStart(input.case, input.binding),
      typedSearchAttributes: [
        { key: ACCOUNT_ID, value: input.accountId },
        { key: CASE_TYPE, value: type.object },
        { key: CASE_STATUS, value: input.case.status },
        { key: PATIENT_REF, value: patientRef },
      ],
    };
    await this.client.workflow.start<W>(type.workflowType, options as WorkflowStartOptions<W>);
  }

  /**
   * The case as its memo holds it, which the workflow rewrites at every change a read can see: no
   * worker and no workflow task. Undefined when no workflow has this id.
   */
  async describe(caseId: string): Promise<CaseExecution | undefined> {
    try {
      const description = await this.client.workflow.getHandle(caseId).describe();
      const memo: CaseMemo = description.memo ?? {};
      return {
        caseId,
        startTime: description.startTime,
        accountId: description.typedSearchAttributes.get(ACCOUNT_ID),
        object: description.typedSearchAttributes.get(CASE_TYPE),
        sealedByUs: sealedByUs(description.raw.workflowExecutionInfo?.memo?.fields),
        record: caseFromMemo(memo),
        binding: memo[BINDING_MEMO_KEY],
      };
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    }
  }

  /** Runs an update to its result; the wait ends with gRPC DEADLINE_EXCEEDED at `deadline` (epoch ms). */
  executeUpdate(
    caseId: string,
    message: UpdateDefinition<CaseRecord, [unknown]> | UpdateDefinition<CaseRecord, []>,
    args: [unknown] | [],
    deadline: number,
    /** The same id sent again gets the first update's outcome: Temporal runs an update id once. */
    updateId?: string,
  ): Promise<CaseRecord> {
    const handle = this.client.workflow.getHandle(caseId);
    // One call for updates with and without an argument: the SDK's overloads take them apart.
    const update = message as UpdateDefinition<CaseRecord, [unknown]>;
    return this.client.withDeadline(deadline, () =>
      handle.executeUpdate(update, { args: args as [unknown], ...(updateId && { updateId }) }),
    );
  }
}
