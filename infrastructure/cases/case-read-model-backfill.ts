import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';

import { summaryOf } from '../../domain/cases/case-summary';
import { BINDING_MEMO_KEY, caseFromMemo } from '../../domain/temporal/case-memo';
import { ACCOUNT_ID, CASE_TYPE, PATIENT_REF } from '../../domain/temporal/search-attributes';
import type { EncryptionSettings } from '../config/config';
import type { SecretBox } from '../crypto/aes-gcm';
import { caseMemoTrusted } from '../temporal/case-binding';
import { readSealedMemo } from '../temporal/sealed-memos';
import { isNotFoundByTemporal } from '../temporal/workflow-deletion';
import type { CaseSummariesRepository } from './case-summaries.repository';

export interface BackfillDependencies {
  client: Client;
  namespace: string;
  summaries: CaseSummariesRepository;
  box: SecretBox;
  encryption: EncryptionSettings;
  /** Whether a case started before the API bound cases to accounts, and is trusted without a binding. */
  startedBeforeBindings(startTime: Date): Promise<boolean>;
}

export interface BackfillResult {
  /** Cases the pass looked at. */
  examined: number;
  /** Rows it wrote: cases that had none, or whose row lacked the case object. */
  written: number;
}

const PAGE_SIZE = 100;

/**
 * Gives every case a read model row with its case object: cases that made no move since the summaries
 * (or since the object joined them) have none until their next change. Reads each such case's memo
 * and writes its row as the lifecycle would. Safe beside running cases: the row keeps the newest
 * write by sequence, so a case that moves meanwhile wins over what this pass read, and a case purged
 * meanwhile loses its row again. A case whose memo is not sealed by us, or whose binding does not
 * hold, is left out, as GET leaves it out.
 */
export class CaseReadModelBackfill {
  constructor(private readonly deps: BackfillDependencies) {}

  async run(): Promise<BackfillResult> {
    const result: BackfillResult = { examined: 0, written: 0 };
    let nextPageToken: Uint8Array | undefined;
    do {
      const page = await this.deps.client.workflowService.listWorkflowExecutions({
        namespace: this.deps.namespace,
        query: `${CASE_TYPE.name} IS NOT NULL AND ExecutionStatus != 'ContinuedAsNew'`,
        pageSize: PAGE_SIZE,
        nextPageToken,
      });
      const caseIds = (page.executions ?? []).map((execution) => execution.execution!.workflowId!);
      result.examined += caseIds.length;
      for (const caseId of await this.deps.summaries.idsWithoutCaseObject(caseIds)) {
        if (await this.fill(caseId)) result.written += 1;
      }
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    return result;
  }

  /** Whether it wrote the case's row; a case whose memo this process cannot open is passed over. */
  private async fill(caseId: string): Promise<boolean> {
    const execution = await this.describe(caseId);
    const accountId = searchAttribute(execution, ACCOUNT_ID.name);
    if (!execution || !accountId) return false;
    const memo = await readSealedMemo(
      this.deps.client.options.loadedDataConverter,
      execution.memo?.fields,
    ).catch(
      // Sealed under a key this process lacks, or not a payload of ours at all: GET cannot show it either.
      () => undefined,
    );
    if (!memo) return false;
    const trusted = await caseMemoTrusted(
      this.deps.encryption,
      { caseId, accountId, binding: memo[BINDING_MEMO_KEY] },
      () => this.deps.startedBeforeBindings(new Date(Number(execution.startTime?.seconds ?? 0) * 1000)),
    );
    if (!trusted) return false;
    const record = caseFromMemo(memo);
    const summary = summaryOf(record, {
      accountId,
      patientRef: searchAttribute(execution, PATIENT_REF.name) ?? null,
    });
    if (!(await this.deps.summaries.record(summary, this.deps.box.sealText(JSON.stringify(record)))))
      return false;
    // A purge deletes the workflow, then the row: a row written after that purge read the case
    // before it went, and goes too.
    if (await this.describe(caseId)) return true;
    await this.deps.summaries.forget(caseId);
    return false;
  }

  /** The execution as Temporal holds it, nothing decoded yet; undefined once it is gone. */
  private async describe(caseId: string): Promise<ExecutionInfo | undefined> {
    try {
      const { workflowExecutionInfo } = await this.deps.client.workflowService.describeWorkflowExecution({
        namespace: this.deps.namespace,
        execution: { workflowId: caseId },
      });
      return workflowExecutionInfo ?? undefined;
    } catch (error) {
      if (isNotFoundByTemporal(error)) return undefined;
      throw error;
    }
  }
}

type ExecutionInfo = temporal.api.workflow.v1.IWorkflowExecutionInfo;

/** A keyword search attribute's value: plain JSON, never sealed. */
function searchAttribute(execution: ExecutionInfo | undefined, name: string): string | undefined {
  const payload = execution?.searchAttributes?.indexedFields?.[name];
  const value = payload ? defaultPayloadConverter.fromPayload<unknown>(payload) : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}
