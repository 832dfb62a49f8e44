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

import type { createCaseSummaryActivities } from '../activities/case-summaries.activities';
import type { createWebhookActivities } from '../activities/webhooks.activities';
import { FINAL_STATUSES } from '../domain/cases/case-model';
import { summaryOf, type CaseSummary } from '../domain/cases/case-summary';
import type { CaseStatus } from '../domain/cases/case-model';
import type { CaseRecord } from '../domain/cases/case-model';
import type { CancelRequest } from '../domain/cases/case-model';
import { INVALID_STATE } from '../domain/failures';
import { memoAfterChange, REQUEST_MEMO_KEY } from '../domain/temporal/case-memo';
import { CASE_ATTENTION, CASE_STATUS, PATIENT_REF } from '../domain/temporal/search-attributes';
import { caseEventId, finalCaseEventId } from '../domain/webhooks/case-event-ids';
import type { CaseEventType } from '../domain/webhooks/event-types';
import { FailedByOperator, failureEnding, type CaseFailureEnding } from './case-failures';
import {
  CASE_OBJECTS_IN_READ_MODEL,
  CASE_SUMMARIES,
  PUBLISH_EVENTS_LOCALLY,
  STABLE_CASE_EVENT_IDS,
} from './patches';

type WebhookActivities = ReturnType<typeof createWebhookActivities>;
type PublishEventInput = Parameters<WebhookActivities['publishEvent']>[0];
type CaseSummaryActivities = ReturnType<typeof createCaseSummaryActivities>;

// Recording an event is a few inserts: a short limit lets a crashed worker's attempt be retried
// elsewhere quickly. As a local activity it costs one marker in history instead of an activity
// task, and its input never enters history.
const PUBLISH_EVENT_OPTIONS: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { maximumInterval: '1 minute' },
};
const publishEventRemotely = proxyActivities<WebhookActivities>(PUBLISH_EVENT_OPTIONS).publishEvent;
const publishEventLocally = proxyLocalActivities<WebhookActivities>(PUBLISH_EVENT_OPTIONS).publishEvent;
// The summary write is a single upsert, so it shares the event's profile and, when the move is
// announced, its local activity: one marker per move.
const { recordCaseSummary, recordCaseMove } =
  proxyLocalActivities<CaseSummaryActivities>(PUBLISH_EVENT_OPTIONS);

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
 * accepted cancellation request ends it `cancelled`; an operator's `failNow` fails it with the operator's
 * reason; a failed activity fails it with the ending of its failure type, or `unclassified` when it has
 * none of the taxonomy. Anything else is a bug and fails
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
  if (error instanceof FailedByOperator) {
    await lifecycle.moveTo('failed', error.ending.reason, { failure: error.ending.failure } as Partial<Case>);
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
 * `CaseStatus` search attribute, the memo and the SQL case summary (lists and the review queue), and,
 * for the statuses the case type announces, published as a webhook event whose `sequence` lets
 * receivers order what they get.
 */
export class CaseLifecycle<Case extends CaseRecord> {
  /** The request as the memo holds it: the case's input, until the workflow replaces it. */
  private requestInMemo: unknown;
  /** Announcements that are not moves, counted per sequence: the count tells their ids apart. */
  private announcements = { sequence: 0, count: 0 };

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
  }

  get status(): CaseStatus {
    return this.record.status;
  }

  get isFinal(): boolean {
    return FINAL_STATUSES.includes(this.record.status);
  }

  /**
   * The first status was set when the case was created: its summary is written, and it is announced
   * if this case type does.
   */
  async announceCreation(): Promise<void> {
    await this.recordMove(this.options.announces(this.record.status));
  }

  async moveTo(status: CaseStatus, reason: string | null, changes: Partial<Case> = {}): Promise<void> {
    const at = new Date().toISOString();
    // A final case waits for nothing: an outage it was waiting out no longer needs anyone.
    const settled = FINAL_STATUSES.includes(status) && this.record.attention ? { attention: null } : {};
    Object.assign(this.record, changes, settled, {
      status,
      status_description: this.options.describe(status),
      updated_at: at,
    });
    this.record.status_history.push({ status, at, reason });
    upsertSearchAttributes([
      { key: CASE_STATUS, value: status },
      ...('attention' in settled ? [{ key: CASE_ATTENTION, value: null }] : []),
    ]);
    this.saveMemo();
    // The provider was told the case waits out an outage: it hears how the case ended, even in a
    // status its type does not otherwise announce (a benefit verification cancelled meanwhile).
    await this.recordMove(this.options.announces(status) || 'attention' in settled);
  }

  /**
   * Changes that are not a status move (an overdue flag, a reminder) still reach reads of the case:
   * the memo and the read model's row, which holds the case object. Runs from before that row held it
   * wrote it only when a summarised field changed, and replay so.
   */
  async update(changes: Partial<Case>): Promise<void> {
    const before = summarised(this.summary());
    Object.assign(this.record, changes, { updated_at: new Date().toISOString() });
    this.saveMemo();
    const summaryChanged = summarised(this.summary()) !== before;
    if ((summaryChanged && patched(CASE_SUMMARIES)) || patched(CASE_OBJECTS_IN_READ_MODEL))
      await recordCaseSummary(this.summary(), this.record);
  }

  /**
   * An event about the case that is not a status move (a deadline passed): the case as it stands,
   * under its own event type, published once where the workflow calls it.
   */
  async announce(eventType: CaseEventType): Promise<void> {
    const sequence = this.record.status_history.length;
    const count = this.announcements.sequence === sequence ? this.announcements.count + 1 : 1;
    this.announcements = { sequence, count };
    // A run continued as new counts again from one: the run it continued from keeps its ids apart.
    const run = workflowInfo().continuedFromExecutionRunId ?? 'first';
    await publishEventLocally({
      ...this.event(`${sequence}:${eventType}:${run}:${count}`),
      type: eventType,
    });
  }

  /**
   * A move's writes outside Temporal: the read model's row, then the event if the status is
   * announced, in one local activity. Runs that moved before the summaries replay the event alone,
   * and write their row from the read model's case objects on.
   */
  private async recordMove(announced: boolean): Promise<void> {
    if (patched(CASE_SUMMARIES)) {
      if (announced)
        await recordCaseMove({
          summary: this.summary(),
          event: this.event(this.moveOccurrence()),
          caseObject: this.record,
        });
      else await recordCaseSummary(this.summary(), this.record);
      return;
    }
    if (patched(CASE_OBJECTS_IN_READ_MODEL)) await recordCaseSummary(this.summary(), this.record);
    if (!announced) return;
    if (patched(PUBLISH_EVENTS_LOCALLY)) {
      await publishEventLocally(this.event(this.moveOccurrence()));
      return;
    }
    // A regular activity's input is history: these runs keep sending the case alone with its id.
    const { request: _request, ...withoutRequest } = this.event(this.moveOccurrence());
    await publishEventRemotely(withoutRequest);
  }

  /** A move is its sequence and status; every final move is the case's one final notification. */
  private moveOccurrence(): string | undefined {
    return this.isFinal ? undefined : `${this.record.status_history.length}:${this.record.status}`;
  }

  private summary(): CaseSummary {
    return summaryOf(this.record, {
      accountId: this.options.accountId,
      patientRef: workflowInfo().typedSearchAttributes.get(PATIENT_REF) ?? null,
    });
  }

  private saveMemo(): void {
    const requestKeptApart = workflowInfo().memo?.[REQUEST_MEMO_KEY] !== undefined;
    upsertMemo(memoAfterChange(this.record, this.requestInMemo, requestKeptApart));
    this.requestInMemo = (this.record as CaseRecord & { request?: unknown }).request;
  }

  /**
   * The event carries the case with its request, so the publisher needs no read of this workflow: a
   * local activity's input never enters history, so a request of up to 1.5 MiB costs a move none.
   */
  private event(occurrence: string | undefined): PublishEventInput {
    const { request, ...summary } = this.record as CaseRecord & { request?: unknown };
    return {
      eventId: this.eventId(occurrence),
      accountId: this.options.accountId,
      type: this.options.eventType,
      data: { ...summary, sequence: this.record.status_history.length },
      createdAt: this.record.updated_at,
      ...(request === undefined ? {} : { caseId: this.record.id, request }),
    };
  }

  /**
   * Derived from the case and the occurrence (none: the final notification), so a Reset's run
   * announces a move again under the id it first had. Runs before the patch drew it from `uuid4()`,
   * which a replay repeats but a Reset's run does not: its seed is the new run's id.
   */
  private eventId(occurrence: string | undefined): string {
    if (!patched(STABLE_CASE_EVENT_IDS)) return `evt_${uuid4().replace(/-/g, '')}`;
    const caseId = workflowInfo().workflowId;
    return occurrence === undefined ? finalCaseEventId(caseId) : caseEventId(caseId, occurrence);
  }
}

/** A summary's fields apart from `updated_at`, which every change moves. */
function summarised({ updated_at: _updatedAt, ...fields }: CaseSummary): string {
  return JSON.stringify(fields);
}
