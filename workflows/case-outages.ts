import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  patched,
  upsertSearchAttributes,
} from '@temporalio/workflow';

import {
  OPERATOR_FAILURE_REASONS,
  type AttentionReason,
  type CancelRequest,
  type CaseAttention,
  type CaseRecord,
  type FailNowRequest,
  type OutageSchedule,
  type RetryNowRequest,
} from '../domain/cases/case-model';
import { CASE_FAILURE_CODE, PAYER_UNAVAILABLE, PROGRAM_HUB_UNAVAILABLE } from '../domain/failures';
import { CASE_ATTENTION } from '../domain/temporal/search-attributes';
import type { CaseEventType } from '../domain/webhooks/event-types';
import { FailedByOperator } from './case-failures';
import { answerAfter, refuse, type CaseLifecycle } from './case-lifecycle';
import { failNowSignal, requestFailNowUpdate, requestRetryNowUpdate, retryNowSignal } from './case.messages';
import { ATTENTION_ON_OUTAGES } from './patches';

/** The failure types that mean "still unavailable after every attempt", and the attention they show. */
const ATTENTION_FOR: Readonly<Record<string, AttentionReason>> = {
  [PAYER_UNAVAILABLE]: CASE_FAILURE_CODE.payerUnavailable,
  [PROGRAM_HUB_UNAVAILABLE]: CASE_FAILURE_CODE.programUnavailable,
};

/**
 * How a case waits out a connector that stays unavailable: it keeps its status and shows `attention`
 * (announced with the case type's event when it appears and when it clears), calls again on the
 * outage schedule until its deadline, and takes an operator's `retryNow` or `failNow` meanwhile.
 * Past the deadline the last failure is thrown, so the case ends as it did before outages were
 * waited out.
 */
export class ConnectorOutages<Case extends CaseRecord> {
  private retryRequested = false;
  private failRequest: FailNowRequest | undefined;
  private waiting = false;

  constructor(
    private readonly lifecycle: CaseLifecycle<Case>,
    private readonly eventType: CaseEventType,
    private readonly schedule: OutageSchedule | undefined,
    private readonly cancellation: () => CancelRequest | undefined,
  ) {}

  /**
   * The operator's messages, for `acceptDecisions`: only a case waiting between calls takes them
   * (it shows `attention`, and no call is under way).
   */
  get decisions() {
    const mustNeedAttention = () => {
      if (this.lifecycle.isFinal || !this.waiting || this.failRequest || this.cancellation())
        refuse('Only a case waiting out a connector outage (it shows attention) takes this message.');
    };
    return [
      {
        signal: retryNowSignal,
        update: requestRetryNowUpdate,
        check: mustNeedAttention,
        keep: (_request: RetryNowRequest) => {
          this.retryRequested = true;
        },
        // Answers once the call is under way again; the case shows how it went.
        answer: async (apply: () => void) => {
          apply();
          await condition(() => !this.retryRequested);
          return this.lifecycle.record;
        },
      },
      {
        signal: failNowSignal,
        update: requestFailNowUpdate,
        check: mustNeedAttention,
        keep: (request: FailNowRequest) => {
          if (!Object.hasOwn(OPERATOR_FAILURE_REASONS, request?.reason ?? ''))
            refuse(`failNow needs a reason among: ${Object.keys(OPERATOR_FAILURE_REASONS).join(', ')}.`);
          this.failRequest = request;
        },
        answer: (apply: () => void) => answerAfter(this.lifecycle, apply),
      },
    ];
  }

  /**
   * Runs `call` until it answers. A failure that is not an outage, one past the deadline (epoch ms;
   * by default the schedule's `deadlineMs` after the outage was first seen), or any failure in a case
   * started without an outage schedule is thrown as it is.
   */
  async call<Result>(
    call: () => Promise<Result>,
    deadlineAfter: (since: number) => number = this.defaultDeadline,
  ): Promise<Result> {
    return (await this.callUntil(call, deadlineAfter, () => false)) as Result;
  }

  /**
   * As `call`, for a poll that something else can make moot (a reviewer's outcome, a deadline to
   * announce): once `moot()` holds after a failed call or while waiting, answers `undefined` instead
   * of calling again, so the caller takes that first. `attention` stays until a call answers or the
   * case ends.
   */
  async poll<Result>(
    call: () => Promise<Result>,
    moot: () => boolean,
    deadlineAfter: (since: number) => number = this.defaultDeadline,
  ): Promise<Result | undefined> {
    return this.callUntil(call, deadlineAfter, moot);
  }

  private readonly defaultDeadline = (since: number) => since + (this.schedule?.deadlineMs ?? 0);

  private async callUntil<Result>(
    call: () => Promise<Result>,
    deadlineAfter: (since: number) => number,
    moot: () => boolean,
  ): Promise<Result | undefined> {
    let delayMs = this.schedule?.firstRetryMs ?? 0;
    for (;;) {
      try {
        const result = await call();
        await this.showAttention(null);
        return result;
      } catch (error) {
        const reason = outageOf(error);
        if (!reason || !this.schedule || this.cancellation() || !patched(ATTENTION_ON_OUTAGES)) throw error;
        const now = Date.now();
        const since = this.lifecycle.record.attention?.since ?? new Date(now).toISOString();
        if (moot()) return undefined;
        const deadline = deadlineAfter(Date.parse(since));
        if (now >= deadline) throw error;
        const nextRetryAt = Math.min(now + delayMs, deadline);
        await this.showAttention({ reason, since, next_retry_at: new Date(nextRetryAt).toISOString() });
        try {
          this.waiting = true;
          await condition(
            () =>
              this.retryRequested ||
              this.failRequest !== undefined ||
              this.cancellation() !== undefined ||
              moot(),
            nextRetryAt - now,
          );
        } finally {
          // A retryNow taken just before the run is cancelled still answers.
          this.waiting = false;
          this.retryRequested = false;
        }
        if (this.failRequest) throw new FailedByOperator(this.failRequest);
        if (this.cancellation()) throw error;
        if (moot()) return undefined;
        delayMs = Math.min(delayMs * 2, this.schedule.longestRetryMs);
      }
    }
  }

  /**
   * Writes `attention`; its appearing and its clearing are announced and mirrored into the
   * `CaseAttention` search attribute (operators' saved query), a new retry time is not.
   */
  private async showAttention(attention: CaseAttention | null): Promise<void> {
    const before = this.lifecycle.record.attention ?? null;
    if (attention === null && before === null) return;
    const appearsOrClears = (before === null) !== (attention === null);
    if (appearsOrClears) upsertSearchAttributes([{ key: CASE_ATTENTION, value: attention?.reason ?? null }]);
    await this.lifecycle.update({ attention } as Partial<Case>);
    if (appearsOrClears) await this.lifecycle.announce(this.eventType);
  }
}

/** The attention an activity's failure calls for: its connector stayed unavailable through every attempt. */
function outageOf(error: unknown): AttentionReason | undefined {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  return cause instanceof ApplicationFailure && cause.type ? ATTENTION_FOR[cause.type] : undefined;
}
