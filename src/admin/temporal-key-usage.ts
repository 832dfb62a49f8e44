import { Client, isGrpcServiceError } from '@temporalio/client';
import { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';

import type { CaseBinding } from '../../domain/cases/case-binding';
import { ENCRYPTION_KEY_ID_METADATA } from '../../infrastructure/temporal/encryption-codec';
import { isNotFoundByTemporal } from '../../infrastructure/temporal/workflow-deletion';
import { BINDING_MEMO_KEY } from '../../domain/temporal/case-memo';
import { decodePayload } from '../../infrastructure/temporal/sealed-memos';

const RUNNING = temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
const HISTORIES_AT_ONCE = 4;
const EXAMPLES_PER_KEY = 5;

export interface KeyUseInTemporal {
  /** Running executions that recorded payloads under the key, or whose case binding names it. */
  openExecutions: number;
  /** Closed executions Temporal still keeps (until retention or a purge deletes them) that need it. */
  closedExecutions: number;
  /** Schedules whose stored action is sealed under the key. */
  schedules: number;
  /**
   * A few workflow ids (opaque, never PHI), running ones first since they are the ones to act on,
   * so an operator can look at them in Temporal Web.
   */
  exampleWorkflowIds: string[];
}

/** What a key that nothing in Temporal needs shows; new each time, since a scan adds to it. */
export const noUseInTemporal = (): KeyUseInTemporal => ({
  openExecutions: 0,
  closedExecutions: 0,
  schedules: 0,
  exampleWorkflowIds: [],
});

const GRPC_RESOURCE_EXHAUSTED = 8;
const ONE_EVENT = 1;
const LIST_PAGE_SIZE = 25;

/** A visibility query's string literal. */
const quoted = (value: string): string => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** An answer larger than the client accepts in one message. */
const isTooLargeForClient = (error: unknown): boolean =>
  isGrpcServiceError(error) && error.code === GRPC_RESOURCE_EXHAUSTED;
const decoder = new TextDecoder();

/**
 * Which payload keys what Temporal keeps still needs. Histories are immutable: every payload
 * recorded under a key stays under it until the execution is deleted. So this reads the key id in
 * the metadata of every payload of every retained execution's history (never decrypting one) and
 * of every schedule's action. A case's binding (the MAC in its memo) also names the key it was made
 * with, and continue-as-new carries it into runs written under later keys, so that memo field alone
 * is decoded: it holds a key id and a MAC, no PHI.
 */
export async function keysNeededByTemporal(
  client: Client,
  { namespace, taskQueue }: { namespace: string; taskQueue: string },
  onProgress: (executionsRead: number) => void = () => undefined,
): Promise<Map<string, KeyUseInTemporal>> {
  const uses = new Map<string, KeyUseInTemporal & { closedExamples: string[] }>();
  const useOf = (keyId: string) => {
    let use = uses.get(keyId);
    if (!use) {
      use = { ...noUseInTemporal(), closedExamples: [] };
      uses.set(keyId, use);
    }
    return use;
  };

  let executionsRead = 0;
  let nextPageToken: Uint8Array | undefined;
  // Each listed execution carries its memo, up to a 2 MB request: pages shrink until one fits the
  // client's 4 MB message limit.
  let pageSize = LIST_PAGE_SIZE;
  for (;;) {
    const page = await client.workflowService
      .listWorkflowExecutions({
        namespace,
        query: `TaskQueue = ${quoted(taskQueue)}`,
        pageSize,
        nextPageToken,
      })
      .catch((error: unknown) => {
        if (pageSize > 1 && isTooLargeForClient(error)) return undefined;
        throw error;
      });
    if (!page) {
      pageSize = Math.max(1, Math.floor(pageSize / 4));
      continue;
    }
    const executions = page.executions ?? [];
    for (let start = 0; start < executions.length; start += HISTORIES_AT_ONCE) {
      await Promise.all(
        executions.slice(start, start + HISTORIES_AT_ONCE).map(async (execution) => {
          const { workflowId, runId } = execution.execution!;
          const keyIds = await keysOfHistory(client, namespace, workflowId!, runId!);
          const binding = await bindingKeyId(client, execution.memo?.fields?.[BINDING_MEMO_KEY]);
          if (binding) keyIds.add(binding);
          for (const keyId of keyIds) {
            const use = useOf(keyId);
            const running = execution.status === RUNNING;
            if (running) use.openExecutions += 1;
            else use.closedExecutions += 1;
            const examples = running ? use.exampleWorkflowIds : use.closedExamples;
            if (examples.length < EXAMPLES_PER_KEY) examples.push(workflowId!);
          }
        }),
      );
    }
    executionsRead += executions.length;
    onProgress(executionsRead);
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    if (!nextPageToken) break;
  }

  for (const keyId of await keysOfSchedules(client, namespace)) useOf(keyId).schedules += 1;
  return new Map(
    [...uses].map(([keyId, { closedExamples, ...use }]) => [
      keyId,
      {
        ...use,
        exampleWorkflowIds: [...use.exampleWorkflowIds, ...closedExamples].slice(0, EXAMPLES_PER_KEY),
      },
    ]),
  );
}

async function keysOfHistory(
  client: Client,
  namespace: string,
  workflowId: string,
  runId: string,
): Promise<Set<string>> {
  const keyIds = new Set<string>();
  let nextPageToken: Uint8Array | undefined;
  // The server's default page; one event at a time once a page outgrows the client's 4 MB message
  // limit (a case with large documents), which a single event, at most one 2 MB payload, stays under.
  let maximumPageSize = 0;
  for (;;) {
    const page = await client.workflowService
      .getWorkflowExecutionHistory({
        namespace,
        execution: { workflowId, runId },
        nextPageToken,
        maximumPageSize,
      })
      .catch((error: unknown) => {
        // Deleted since visibility listed it (Temporal deletes asynchronously): it needs no key any more.
        if (isNotFoundByTemporal(error)) return 'deleted' as const;
        if (
          maximumPageSize !== ONE_EVENT &&
          isGrpcServiceError(error) &&
          error.code === GRPC_RESOURCE_EXHAUSTED
        ) {
          return 'too_large' as const;
        }
        throw error;
      });
    if (page === 'deleted') return new Set();
    if (page === 'too_large') {
      maximumPageSize = ONE_EVENT;
      continue;
    }
    collectKeyIds(page.history?.events ?? [], keyIds);
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    if (!nextPageToken) return keyIds;
  }
}

/** One entry per schedule and key id its stored action uses. */
async function keysOfSchedules(client: Client, namespace: string): Promise<string[]> {
  const found: string[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.listSchedules({ namespace, nextPageToken });
    for (const { scheduleId } of page.schedules ?? []) {
      const described = await client.workflowService
        .describeSchedule({ namespace, scheduleId })
        .catch((error: unknown) => {
          if (isNotFoundByTemporal(error)) return undefined;
          throw error;
        });
      found.push(...collectKeyIds(described?.schedule?.action, new Set()));
    }
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return found;
}

/** The key a case binding was made with; undefined when there is none or its memo does not open here. */
async function bindingKeyId(
  client: Client,
  payload: Payload | null | undefined,
): Promise<string | undefined> {
  if (!payload) return undefined;
  try {
    const binding = await decodePayload<Partial<CaseBinding>>(client.options.loadedDataConverter, payload);
    return typeof binding?.keyId === 'string' ? binding.keyId : undefined;
  } catch {
    // Sealed under a key this process lacks: that key id is already counted from the payload's metadata.
    return undefined;
  }
}

/** Adds the key id of every encrypted payload found anywhere in a Temporal API message. */
function collectKeyIds(message: unknown, keyIds: Set<string>): Set<string> {
  if (message === null || typeof message !== 'object' || message instanceof Uint8Array) return keyIds;
  if (Array.isArray(message)) {
    for (const item of message) collectKeyIds(item, keyIds);
    return keyIds;
  }
  const keyId = (message as Partial<Payload>).metadata?.[ENCRYPTION_KEY_ID_METADATA];
  if (keyId instanceof Uint8Array) keyIds.add(decoder.decode(keyId));
  for (const value of Object.values(message)) collectKeyIds(value, keyIds);
  return keyIds;
}
