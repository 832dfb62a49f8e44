import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  type ActivityInterface,
  type ActivityInterfaceFor,
  type LocalActivityInterfaceFor,
  type RetryPolicy,
} from '@temporalio/workflow';
import type { SignalDefinition, UpdateDefinition } from '@temporalio/common';

import type {
  CancelRequest,
  CaseRecord,
  CaseStatus,
  ConnectorRetry,
  OutageSchedule,
} from '../domain/cases/case-model';
import { DECISION_INVALID } from '../domain/failures';
import type { CaseEventType } from '../domain/webhooks/event-types';
import { refuseMalformedStart, verifyAccountBindingFirst } from './case-binding';
import type { CaseFailureEnding } from './case-failures';
import { ConnectorOutages } from './case-outages';
import {
  answerAfter,
  answerWhenCancelled,
  CaseLifecycle,
  endOnError,
  ignoreRefusal,
  refuse,
} from './case-lifecycle';
import { cancelCaseSignal, getCaseQuery, requestCancellationUpdate } from './case.messages';

/**
 * Connector calls (payer, program hub) are retried for a while, then the case fails with a clear
 * reason instead of hanging; a failure the connector calls permanent is not retried at all. Cases
 * started before the policy came with their input keep this one, as their histories recorded.
 */
const RECORDED_CONNECTOR_RETRY: ConnectorRetry = {
  initialIntervalMs: 2_000,
  maximumIntervalMs: 60_000,
  maximumAttempts: 10,
};

/** History stays far below Temporal's limits: a long wait for a payer or a program continues as a new run. */
const CONTINUE_AS_NEW_AFTER_EVENTS = 10_000;

/**
 * A case workflow's activities: `remote` as activity tasks, and `inProcess` for steps answered inside
 * the worker (the plan from the catalog, the program rules): a marker in history, not an activity task.
 * Both retry as the case's timings say; the policy is not part of the commands replay compares.
 */
function connectorCalls<Activities extends ActivityInterface>({
  initialIntervalMs,
  maximumIntervalMs,
  maximumAttempts,
}: ConnectorRetry = RECORDED_CONNECTOR_RETRY) {
  const retry: RetryPolicy = {
    initialInterval: initialIntervalMs,
    maximumInterval: maximumIntervalMs,
    maximumAttempts,
  };
  return {
    // Real-time eligibility answers within seconds (hard cap 30 s); beyond that an attempt is lost.
    remote: proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry }),
    inProcess: proxyLocalActivities<Activities>({ startToCloseTimeout: '10 seconds', retry }),
  };
}

/**
 * A case's lifecycle and the cancellation it accepts until final. The workflow registers its handlers
 * next, before its first await (the account binding check): an update that arrives with the start is
 * rejected by the SDK unless its handler exists by the end of that first activation.
 */
export function openCase<Case extends CaseRecord>(
  input: { case: Case; accountId: string },
  eventType: CaseEventType,
  descriptions: Readonly<Record<CaseStatus, string>>,
  /** The statuses the case type announces with an event; every one unless said otherwise. */
  announces: (status: CaseStatus) => boolean = () => true,
) {
  refuseMalformedStart(input);
  const lifecycle = new CaseLifecycle(input.case, {
    accountId: input.accountId,
    eventType,
    announces,
    describe: (status) => descriptions[status],
  });
  return { lifecycle, record: lifecycle.record, cancellation: cancellationOf(lifecycle) };
}

/**
 * `openCase` for a case that calls connectors: its run also waits out their outages, on the schedule
 * its timings fixed when it started, announcing attention with the case's own event, and calls its
 * connector's `Activities` with the retry policy its timings fixed (`connectorCalls`).
 */
export function openConnectedCase<Input extends CaseStart, Activities extends ActivityInterface>(
  input: Input,
  eventType: CaseEventType,
  descriptions: Readonly<Record<CaseStatus, string>>,
  announces?: (status: CaseStatus) => boolean,
): ConnectedCaseRun<Input['case'], Input, Activities> {
  const { lifecycle, record, cancellation } = openCase(input, eventType, descriptions, announces);
  // After openCase: it refuses a start that is not a case before anything reads the input.
  const outages = new ConnectorOutages(lifecycle, eventType, input.timings.outage, cancellation.requested);
  const { remote: connector, inProcess } = connectorCalls<Activities>(input.timings.connectorRetry);
  return { input, lifecycle, record, cancellation, outages, connector, inProcess };
}

/** What a connected case's workflow is started with, as far as opening it goes. */
interface CaseStart {
  case: CaseRecord;
  accountId: string;
  timings: { outage?: OutageSchedule; connectorRetry?: ConnectorRetry };
}

/**
 * A case workflow's body: the account binding check first, then `steps`; a step that fails ends the
 * case as the taxonomy names the failure, or with the case type's `ending`. Answers the case as it
 * stands, whether the steps ran to the end or returned early.
 */
export async function runCase<Case extends CaseRecord>(
  run: {
    input: Parameters<typeof verifyAccountBindingFirst>[0];
    lifecycle: CaseLifecycle<Case>;
    record: Case;
    cancellation: Cancellation;
  },
  ending: CaseFailureEnding,
  steps: () => Promise<unknown>,
): Promise<Case> {
  await verifyAccountBindingFirst(run.input);
  try {
    await steps();
  } catch (error) {
    await endOnError(run.lifecycle, error, run.cancellation.requested(), ending);
  }
  return run.record;
}

/**
 * Refuses a decision unless the case is in `status`, holds no decision like it yet (`taken`) and is
 * not being cancelled; `what` names the decision in the refusal.
 */
export function refuseUnlessAwaiting(
  run: { record: CaseRecord; cancellation: Cancellation },
  status: CaseStatus,
  taken: unknown,
  what: string,
): void {
  if (run.record.status !== status || taken || run.cancellation.requested()) {
    refuse(`${what} needs status ${status}; this case is ${run.record.status}.`);
  }
}

/**
 * An update's answer for a decision the case may act on without moving status: once the workflow has
 * taken it (`kept` is cleared) or the case has ended.
 */
export async function answerOnceTaken<Case extends CaseRecord>(
  lifecycle: CaseLifecycle<Case>,
  kept: () => unknown,
  apply: () => void,
): Promise<Case> {
  apply();
  await condition(() => kept() === undefined || lifecycle.isFinal);
  return lifecycle.record;
}

/** A decision a case accepts by signal (Temporal Web, CLI) or by update (the HTTP API), under one rule. */
export interface Decision<Input> {
  signal: SignalDefinition<[Input]>;
  update: UpdateDefinition<CaseRecord, [Input]>;
  /** Refuses a decision that does not fit the case now. Validators only check (they are not replayed). */
  check(): void;
  /**
   * Refuses an update whose body does not fit the case as it stands. Updates only: their validators
   * never replay, while a signal's handling does, so signals recorded before a rule existed still
   * replay as they were handled.
   */
  checkInput?(input: Input): void;
  /** Keeps an accepted decision for the workflow to act on. */
  keep(input: Input): void;
  /** When the update answers; by default once the workflow has acted on it (moved status). */
  answer?(apply: () => void): Promise<CaseRecord>;
}

/** The cancellation a case accepts until it is final, as `openCase` sets it up. */
export type Cancellation = ReturnType<typeof cancellationOf>;

/** What the steps of every case workflow's run share; each workflow adds its decisions and counters. */
export interface CaseRun<Case extends CaseRecord, Input> {
  readonly input: Input;
  readonly lifecycle: CaseLifecycle<Case>;
  readonly record: Case;
  readonly cancellation: Cancellation;
  readonly outages: ConnectorOutages<Case>;
}

/** A run of a case that calls a connector (the payer, the program hub), as `openConnectedCase` opens it. */
export interface ConnectedCaseRun<Case extends CaseRecord, Input, Activities> extends CaseRun<Case, Input> {
  /** The connector's activities, as activity tasks. */
  readonly connector: ActivityInterfaceFor<Activities>;
  /** The same activities answered inside the worker, as local activities. */
  readonly inProcess: LocalActivityInterfaceFor<Activities>;
}

/** A connected case's decisions: its type's own, then the cancellation and the operators' outage decisions. */
export function acceptCaseDecisions<Case extends CaseRecord>(
  run: CaseRun<Case, unknown>,
  own: Decision<unknown>[],
): void {
  acceptDecisions(run.lifecycle, [...own, run.cancellation.decision, ...run.outages.decisions]);
}

/**
 * Registers the case query, every decision's signal, then every decision's update. A signal that
 * does not fit is dropped; an update that does not fit is refused and changes nothing.
 */
export function acceptDecisions<Case extends CaseRecord>(
  lifecycle: CaseLifecycle<Case>,
  decisions: Decision<unknown>[],
): void {
  setHandler(getCaseQuery, () => lifecycle.record);
  const apply = (decision: Decision<unknown>, input: unknown) => {
    decision.check();
    decision.keep(input);
  };
  for (const decision of decisions) {
    setHandler(
      decision.signal,
      ignoreRefusal((input: unknown) => apply(decision, input)),
    );
  }
  for (const decision of decisions) {
    const answer = decision.answer ?? ((applyIt) => answerAfter(lifecycle, applyIt));
    setHandler(decision.update, (input: unknown) => answer(() => apply(decision, input)), {
      validator: (input: unknown) => {
        decision.check();
        decision.checkInput?.(input);
      },
    });
  }
}

/** Refuses an update's body with the issues found in it; none, and it goes on. */
export function refuseIssues(issues: ReadonlyArray<{ field: string; issue: string }>): void {
  if (issues.length === 0) return;
  throw ApplicationFailure.create({
    type: DECISION_INVALID,
    message: 'The decision does not fit the case; see details.',
    details: [issues],
    nonRetryable: true,
  });
}

/** The cancellation a case accepts until it is final, and its move to `cancelled` once it acts on it. */
function cancellationOf<Case extends CaseRecord>(lifecycle: CaseLifecycle<Case>) {
  let request: CancelRequest | undefined;
  const decision: Decision<CancelRequest> = {
    signal: cancelCaseSignal,
    update: requestCancellationUpdate,
    check: () => {
      if (lifecycle.isFinal || request) refuse(`A ${lifecycle.status} case cannot be cancelled.`);
    },
    keep: (input) => {
      request = input;
    },
    answer: (apply) => answerWhenCancelled(lifecycle, apply),
  };
  return {
    decision,
    // Read through a function: handlers set it between awaits, which flow analysis cannot see.
    requested: (): CancelRequest | undefined => request,
    /** Ends the case `cancelled` if a cancellation was accepted; says whether it did. */
    async cancelIfRequested(): Promise<boolean> {
      if (!request) return false;
      await lifecycle.moveTo('cancelled', request.reason);
      return true;
    },
  };
}

/** Continues as a new run with `next` once history grows long; returns when it does not. */
export async function continueAsNewIfLong<Input>(next: Input): Promise<void> {
  const { historyLength, continueAsNewSuggested } = workflowInfo();
  if (historyLength <= CONTINUE_AS_NEW_AFTER_EVENTS && !continueAsNewSuggested) return;
  await condition(allHandlersFinished);
  await continueAsNew(next);
}

/** Ends the case `failed` with the ending's reason and failure, and any other changes it carries. */
export async function failWith<Case extends CaseRecord>(
  lifecycle: CaseLifecycle<Case>,
  { reason, failure }: CaseFailureEnding,
  changes: Partial<Case> = {},
): Promise<void> {
  await lifecycle.moveTo('failed', reason, { ...changes, failure });
}
