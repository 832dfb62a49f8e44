import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord, FailNowRequest, RetryNowRequest } from '../domain/cases/case-model';
import type { CancelRequest } from '../domain/cases/case-model';

export const getCaseQuery = defineQuery<CaseRecord>('getCase');
export const cancelCaseSignal = defineSignal<[CancelRequest]>('cancelCase');
export const requestCancellationUpdate = defineUpdate<CaseRecord, [CancelRequest]>('requestCancellation');

/**
 * An operator's messages to a case waiting out a connector outage (it shows `attention`): call the
 * connector again now, or end the case `failed` with a reason. Signals for Temporal Web and the
 * Temporal CLI, updates for the API and the admin CLI, which answer.
 */
export const retryNowSignal = defineSignal<[RetryNowRequest]>('retryNow');
export const requestRetryNowUpdate = defineUpdate<CaseRecord, [RetryNowRequest]>('requestRetryNow');
export const failNowSignal = defineSignal<[FailNowRequest]>('failNow');
export const requestFailNowUpdate = defineUpdate<CaseRecord, [FailNowRequest]>('requestFailNow');
