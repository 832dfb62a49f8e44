import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';

/**
 * Messages every case type answers, exported under the names Temporal sees (plus their kind), so
 * code, runbook and Temporal Web speak of the same thing. Each case type adds its own beside its workflow.
 */
export interface CancelRequest {
  reason: string;
}

export const getCaseQuery = defineQuery<CaseRecord>('getCase');
export const cancelCaseSignal = defineSignal<[CancelRequest]>('cancelCase');
export const requestCancellationUpdate = defineUpdate<CaseRecord, [CancelRequest]>('requestCancellation');
