import {
  ApplicationFailure,
  log,
  upsertSearchAttributes,
  workflowInfo,
  type Next,
  type QueryInput,
  type SignalInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
} from '@temporalio/workflow';

import { MESSAGE_FOR_ANOTHER_CASE, UNENCRYPTED_INPUT } from '../domain/failures';
import { readAddress } from '../domain/temporal/message-address';
import { isRefusedPayload } from '../domain/temporal/refused-payload';
import { ACCOUNT_ID } from '../domain/temporal/search-attributes';

const refusal = (what: string) =>
  ApplicationFailure.create({
    type: UNENCRYPTED_INPUT,
    nonRetryable: true,
    message: `The ${what} was not encrypted with the payload codec, so it was refused. Send it through the API or with the codec endpoint (see docs/runbook.md).`,
  });

function refuseUnencrypted(args: unknown[], what: string): void {
  if (args.some(isRefusedPayload)) throw refusal(what);
}

/**
 * Only the API and the workers hold the payload keys, so an unencrypted message came from someone
 * who merely reached the Temporal namespace. Every workflow refuses it here, in one place: a start
 * fails at once, an update is rejected, a signal is dropped and logged (names only, never content).
 */
class RefuseUnencryptedPayloads implements WorkflowInboundCallsInterceptor {
  async execute(
    input: WorkflowExecuteInput,
    next: Next<WorkflowInboundCallsInterceptor, 'execute'>,
  ): Promise<unknown> {
    if (!input.args.some(isRefusedPayload)) return next(input);
    // The starter chose the account search attribute: a forged case must not appear in that account's lists.
    if (workflowInfo().typedSearchAttributes.get(ACCOUNT_ID) !== undefined) {
      upsertSearchAttributes([{ key: ACCOUNT_ID, value: null }]);
    }
    throw refusal('workflow input');
  }

  async handleSignal(
    input: SignalInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>,
  ): Promise<void> {
    if (!input.args.some(isRefusedPayload)) return next(input);
    log.warn('Dropped a signal whose payload was not encrypted', { signalName: input.signalName });
  }

  validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>): void {
    refuseUnencrypted(input.args, 'update');
    next(input);
  }

  // Updates without a validator reach here directly.
  handleUpdate = refuseUnencryptedThenHandle<UpdateInput>('update');

  handleQuery = refuseUnencryptedThenHandle<QueryInput>('query');
}

/** A handler's interceptor that refuses a message (`what`) whose arguments are not encrypted, then hands it on. */
function refuseUnencryptedThenHandle<Input extends { args: unknown[] }>(what: string) {
  return async (input: Input, next: (input: Input) => Promise<unknown>): Promise<unknown> => {
    refuseUnencrypted(input.args, what);
    return next(input);
  };
}

/**
 * A message copied from another case's history is encrypted and so passes the check above; the
 * address the API put inside it still names the case it was sent to. A message addressed elsewhere
 * is refused (updates) or dropped and logged (signals); the address is removed before the handler.
 */
class RefuseMessagesForOtherCases implements WorkflowInboundCallsInterceptor {
  async handleSignal(
    input: SignalInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>,
  ): Promise<void> {
    const { addressedTo, args } = readAddress(input.args);
    if (addressedTo !== undefined && addressedTo !== workflowInfo().workflowId) {
      log.warn('Dropped a signal addressed to another case', { signalName: input.signalName });
      return;
    }
    return next({ ...input, args });
  }

  validateUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>): void {
    next({ ...input, args: addressedHere(input.args) });
  }

  async handleUpdate(
    input: UpdateInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>,
  ): Promise<unknown> {
    return next({ ...input, args: addressedHere(input.args) });
  }
}

function addressedHere(messageArgs: unknown[]): unknown[] {
  const { addressedTo, args } = readAddress(messageArgs);
  if (addressedTo !== undefined && addressedTo !== workflowInfo().workflowId) {
    throw ApplicationFailure.create({
      type: MESSAGE_FOR_ANOTHER_CASE,
      nonRetryable: true,
      message: 'This update was addressed to another case, so it was refused.',
    });
  }
  return args;
}

export const interceptors = (): WorkflowInterceptors => ({
  inbound: [new RefuseUnencryptedPayloads(), new RefuseMessagesForOtherCases()],
});
