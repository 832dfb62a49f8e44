import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';
import type { CancelRequest } from '../domain/cases/case-model';

export const getCaseQuery = defineQuery<CaseRecord>('getCase');
export const cancelCaseSignal = defineSignal<[CancelRequest]>('cancelCase');
export const requestCancellationUpdate = defineUpdate<CaseRecord, [CancelRequest]>('requestCancellation');
