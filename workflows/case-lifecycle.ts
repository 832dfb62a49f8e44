import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  proxyActivities,
  upsertMemo,
  isCancellation,
  patched,
  proxyLocalActivities,
  upsertSearchAttributes,
  uuid4,
  workflowInfo,
  type LocalActivityOptions,
} from '@temporalio/workflow';

import type { createWebhookActivities } from '../activities/webhooks.activities';
import { FINAL_STATUSES } from '../domain/cases/case-model';
import type { CaseStatus } from '../domain/cases/case-model';
import type { CaseRecord } from '../domain/cases/case-model';
import type { CancelRequest } from '../domain/cases/case-model';
import { INVALID_STATE } from '../domain/failures';
import { CASE_MEMO_KEY, REQUEST_MEMO_KEY } from '../domain/temporal/case-memo';
import { CASE_STATUS } from '../domain/temporal/search-attributes';
import type { CaseEventType } from '../domain/webhooks/event-types';
import { failureEnding, type CaseFailureEnding } from './case-failures';
import { PUBLISH_EVENTS_LOCALLY } from './patches';

type WebhookActivities = ReturnType<typeof createWebhookActivities>;
type PublishEventInput = Parameters<WebhookActivities['publishEvent']>[0];

// Recording an event is a few inserts: a short limit lets a crashed worker's attempt be retried
// elsewhere quickly. As a local activity it costs one marker in history instead of an activity
// task, and its input never enters history.
const PUBLISH_EVENT_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { maximumInterval: '1 minute' },
};
const publishEventRemotely = proxyActivities<WebhookActivities>(PUBLISH_EVENT_OPTIONS).publishEvent;
const publishEventLocally = proxyLocalActivities<WebhookActivities>(PUBLISH_EVENT_OPTIONS).publishEvent;

export function refuse(message: string): never {
  throw ApplicationFailure.create({ message, type: INVALID_STATE, nonRetryable: true });
}

/** Signals cannot answer; one that does not fit the status is dropped and changes nothing. */
export function ignoreRefusal<Args extends unknown[]>(
  apply: (...args: Args) => void,
): (...args: Args) => void {
  return (...args) => {
    try {
      apply(...args);
    } catch {
      // Refused: this decision does not apply in the case's current status.
    }
  };
}

/** An accepted decision answers with the case once the workflow has acted on it (moved status). */
export async function answerAfter<Case extends CaseRecord>(
  lifecycle: CaseLifecycle<Case>,
  apply: () => void,
): Promise<Case> {
  const before = lifecycle.record.status_history.length;
  apply();
  await condition(() => lifecycle.record.status_history.length > before);
  return lifecycle.record;
}

/**
 * A cancellation answers once the case is final: `cancelled`, or refused (409 over HTTP) when the
 * case reached another final status first, say a determination that arrived at the same moment.
 */
export async function answerWhenCancelled<Case extends CaseRecord>(
  lifecycle: CaseLifecycle<Case>,
  apply: () => void,
): Promise<Case> {
  apply();
  await condition(() => lifecycle.isFinal);
  if (lifecycle.status !== 'cancelled')
    refuse(`The case became ${lifecycle.status} before it could be cancelled.`);
  return lifecycle.record;
}

/**
 * How a case workflow ends on an error: a cancellation from Temporal (Temporal Web's Cancel) or an
 * accepted cancellation request ends it `cancelled`; a failed activity fails it with the ending of its
 * failure type, or `unclassified` when it has none of the taxonomy. Anything else is a bug and fails
 * the workflow task, so it is fixed and replayed, not hidden.
 */
export async function endOnError<Case extends CaseRecord>(
  lifecycle: CaseLifecycle<Case>,
  error: unknown,
  cancellation: CancelRequest | undefined,
  unclassified: CaseFailureEnding,
): Promise<void> {
  if (isCancellation(error)) {
    await CancellationScope.nonCancellable(() => lifecycle.moveTo('cancelled', 'Cancelled in Temporal.'));
    return;
  }
  if (!(error instanceof ActivityFailure)) throw error;
  if (cancellation) {
    await lifecycle.moveTo('cancelled', cancellation.reason);
    return;
  }
  const { reason, failure } = failureEnding(error, unclassified);
  await lifecycle.moveTo('failed', reason, { failure } as Partial<Case>);
}

/**
 * Moves a case through its statuses. Every move is recorded in `status_history`, mirrored into the
 * `CaseStatus` search attribute and the memo, and, for the statuses the case type announces,
 * published as a webhook event whose `sequence` lets receivers order what they get.
 */
export class CaseLifecycle<Case extends CaseRecord> {
  /** The request as the memo holds it: the case's input, until the workflow replaces it. */
  private requestInMemo: unknown;
  /** The request the API wrote to the memo when it started the case. */
  private readonly requestAtStart: unknown;

  constructor(
    readonly record: Case,
    private readonly options: {
      accountId: string;
      eventType: CaseEventType;
      announces: (status: CaseStatus) => boolean;
      describe: (status: CaseStatus) => string;
    },
  ) {
    this.requestInMemo = (record as CaseRecord & { request?: unknown }).request;
    this.requestAtStart = this.requestInMemo;
  }

  get status(): CaseStatus {
    return this.record.status;
  }

  get isFinal(): boolean {
    return FINAL_STATUSES.includes(this.record.status);
  }

  /** The first status was set when the case was created; announce it if this case type does. */
  async announceCreation(): Promise<void> {
    if (this.options.announces(this.record.status)) await this.publish();
  }

  async moveTo(status: CaseStatus, reason: string | null, changes: Partial<Case> = {}): Promise<void> {
    const at = new Date().toISOString();
    Object.assign(this.record, changes, {
      status,
      status_description: this.options.describe(status),
      updated_at: at,
    });
    this.record.status_history.push({ status, at, reason });
    upsertSearchAttributes([{ key: CASE_STATUS, value: status }]);
    this.saveMemo();
    if (this.options.announces(status)) await this.publish();
  }

  /** Changes that are not a status move (an overdue flag, a reminder) still reach reads of the case. */
  update(changes: Partial<Case>): void {
    Object.assign(this.record, changes, { updated_at: new Date().toISOString() });
    this.saveMemo();
  }

  /**
   * The request rarely changes (an enrollment merges information sent later), so when the case
   * started with it under its own memo key it is written again only when replaced, and the rest of
   * the case at every change. A case started before that split keeps writing its whole object.
   */
  private saveMemo(): void {
    const { request, ...changing } = this.record as CaseRecord & { request?: unknown };
    if (request === undefined || workflowInfo().memo?.[REQUEST_MEMO_KEY] === undefined) {
      upsertMemo({ [CASE_MEMO_KEY]: this.record });
      return;
    }
    const replaced = request !== this.requestInMemo;
    upsertMemo({ [CASE_MEMO_KEY]: changing, ...(replaced ? { [REQUEST_MEMO_KEY]: request } : {}) });
    this.requestInMemo = request;
  }

  /**
   * The event carries the case's summary, not its request (up to 1.5 MiB): the publisher reads the
   * request from the memo the API wrote at the start. Once the workflow has replaced the request,
   * events carry it themselves, since a memo upsert shows only once its workflow task completes.
   */
  private async publish(): Promise<void> {
    const { request, ...summary } = this.record as CaseRecord & { request?: unknown };
    // uuid4() is seeded by Temporal, so a replay computes the same event id.
    const event: PublishEventInput = {
      eventId: `evt_${uuid4().replace(/-/g, '')}`,
      accountId: this.options.accountId,
      type: this.options.eventType,
      data: { ...summary, sequence: this.record.status_history.length },
      createdAt: this.record.updated_at,
      ...(request === undefined
        ? {}
        : { caseId: this.record.id, ...(request === this.requestAtStart ? {} : { request }) }),
    };
    await (patched(PUBLISH_EVENTS_LOCALLY) ? publishEventLocally : publishEventRemotely)(event);
  }
}
