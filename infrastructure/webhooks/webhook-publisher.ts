import { Client } from '@temporalio/client';

import { caseFromMemo } from '../../domain/temporal/case-memo';
import { describeEvent, EventType } from '../../domain/webhooks/event-types';
import type { WebhookSettings } from '../config/config';
import { readSealedMemo } from '../temporal/sealed-memos';
import { CommittedMoves } from './committed-moves';
import { DurableDeliveries } from './durable-deliveries';
import type { FirstAttempts } from './first-attempts';
import type { CaseEventData, NotifiedObject } from '../../domain/webhooks/notified-object';
import { NotificationBody, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export interface PublishEventInput {
  eventId: string;
  accountId: string;
  type: EventType;
  /**
   * The notification's `data`: the test event's payload, or a case's GET object with `sequence`.
   * For a case event with `caseId`, the case without its request, which `publish` adds.
   */
  data: object;
  createdAt: string;
  /** The case (its workflow id) whose request completes `data`. */
  caseId?: string;
  /**
   * The case's request. Events of runs from before local publishing, and of cases started before it,
   * leave it out; it is then read from the case's memo.
   */
  request?: unknown;
  /**
   * The event's mode, which decides the endpoints it goes to. A case event leaves it out: its mode
   * is the case's `livemode` in `data` (absent, for cases started before modes: test).
   */
  livemode?: boolean;
}

/**
 * Turns an event into deliveries. With `firstAttempts` (the worker), each new delivery is attempted
 * in the background once GET shows a case event's move, and only a failure reaches Temporal; without
 * (the API), each delivery starts its delivery workflow right away. Either way publishing never
 * waits for a receiver, and repeating a publish (an activity retry) writes nothing twice and sends
 * nothing twice, so case workflows can call it with at-least-once semantics, as a regular or a local
 * activity.
 */
export class WebhookPublisher {
  private readonly durable: DurableDeliveries;
  private readonly committedMoves: CommittedMoves;

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly temporalClient: Client,
    private readonly settings: { taskQueue: string; webhooks: WebhookSettings },
    private readonly firstAttempts?: FirstAttempts,
  ) {
    this.durable = new DurableDeliveries(deliveries, temporalClient, settings);
    this.committedMoves = new CommittedMoves(temporalClient, settings.webhooks.commitWaitMs);
  }

  /** Returns the ids of the event's deliveries still pending. */
  async publish(input: PublishEventInput, onlyEndpointId?: string): Promise<string[]> {
    const notification: NotificationBody = {
      id: input.eventId,
      type: input.type,
      ...describeEvent(input.type),
      created_at: input.createdAt,
      data: await this.notificationData(input),
    };
    const livemode = input.livemode ?? (input.data as { livemode?: boolean }).livemode ?? false;
    const recorded = await this.deliveries.recordEvent(
      notification,
      { accountId: input.accountId, livemode, caseId: input.caseId },
      {
        onlyEndpointId,
        // A delivery the API records belongs to its own workflow start for `handOffMs`: a start that
        // failed (Temporal unreachable) or never happened (the process died) leaves it pending with
        // that deadline, and a worker's sweep starts it instead, within one sweep interval more.
        firstAttemptMs: this.firstAttempts?.ownershipMs ?? this.settings.webhooks.handOffMs,
      },
    );
    if (this.firstAttempts) {
      const { caseId } = input;
      const sendable = recorded.recordedDeliveryIds;
      // A case's event is published from inside the workflow task that commits its move.
      const moveCommitted =
        caseId !== undefined && sendable.length > 0
          ? this.committedMoves.reached(caseId, input.createdAt)
          : undefined;
      this.firstAttempts.start(sendable, moveCommitted);
    } else {
      await Promise.all(recorded.pendingDeliveryIds.map((deliveryId) => this.startDelivery(deliveryId)));
    }
    return recorded.pendingDeliveryIds;
  }

  /**
   * A case event's body is the case as GET shows it (request last) with its `sequence`; a case
   * started before modes shows `livemode: false`, as GET does. Events published before inputs were
   * slimmed hold the request inside `data` and carry no `caseId`.
   */
  private async notificationData(input: PublishEventInput): Promise<NotifiedObject> {
    if (input.caseId === undefined) return input.data as NotifiedObject;
    const request = 'request' in input ? input.request : await this.requestFromMemo(input.caseId);
    const {
      sequence,
      livemode = false,
      ...summary
    } = input.data as { sequence?: number; livemode?: boolean };
    return { ...summary, livemode, request, sequence } as CaseEventData;
  }

  /** The request as the case's memo holds it; only a memo sealed by our codec is trusted. */
  private async requestFromMemo(caseId: string): Promise<unknown> {
    const { raw } = await this.temporalClient.workflow.getHandle(caseId).describe();
    const memo = await readSealedMemo(
      this.temporalClient.options.loadedDataConverter,
      raw.workflowExecutionInfo?.memo?.fields,
    );
    const request = memo && (caseFromMemo(memo) as { request?: unknown }).request;
    // Retried until it is there: an event without its request would tell receivers less than GET.
    if (request === undefined) throw new Error(`Case ${caseId} has no sealed request in its memo`);
    return request;
  }

  /**
   * Straight to the durable path (manual retries, and every delivery the API records). A delivery
   * whose workflow could not be started is not lost: it stays pending past its ownership deadline,
   * and a worker's sweep starts it (WEBHOOK_HANDOFF_MS).
   */
  async startDelivery(deliveryId: string): Promise<void> {
    await this.durable.start(deliveryId).catch(() => undefined);
  }
}
