import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import {
  Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowHandle,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure, Payload, UpdateDefinition } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';

import type { CaseBinding } from '../../domain/cases/case-binding';
import { FINAL_STATUSES } from '../../domain/cases/case-model';
import type { CaseObjectType, CaseStatus, DocumentRef } from '../../domain/cases/case-model';
import type { CaseRecord } from '../../domain/cases/case-model';
import { INVALID_STATE } from '../../domain/failures';
import { hasIdPrefix, IdKind, newId } from '../../domain/ids';
import { CASE_MEMO_KEY, REQUEST_MEMO_KEY } from '../../domain/temporal/case-memo';
import { addressTo } from '../../domain/temporal/message-address';
import { ACCOUNT_ID, CASE_STATUS, CASE_TYPE, PATIENT_REF } from '../../domain/temporal/search-attributes';
import { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { bindCaseToAccount, caseBindingHolds } from '../../infrastructure/temporal/case-binding';
import { isEncrypted } from '../../infrastructure/temporal/encryption-codec';
import { APP_CONFIG, TEMPORAL_CLIENT } from '../app/tokens';
import type { Principal } from '../auth/accounts.repository';
import { ApiError } from '../common/errors';
import { CaseBindingEpoch } from './case-binding-epoch';
import { IdempotencyRepository } from './idempotency.repository';

export interface CaseTypeSpec {
  object: CaseObjectType;
  idKind: IdKind;
  workflowType: string;
  path: string;
}

/** A document as it arrives: base64 under a name that says where in the request it was. */
export interface IncomingDocument {
  name: string;
  base64: string;
}

export interface CaseCreation<Input> {
  spec: CaseTypeSpec;
  principal: Principal;
  /** The raw request body, hashed for Idempotency-Key comparisons. */
  rawBody: unknown;
  idempotencyKey?: string;
  patientInternalId: string;
  documents: IncomingDocument[];
  /** Builds the workflow input (which holds the initial case object) once the case id and documents exist. */
  buildInput(caseId: string, documents: DocumentRef[], now: Date): Input & { case: CaseRecord };
}

export interface CaseListQuery {
  status?: CaseStatus;
  patient_internal_id?: string;
  created_after?: string;
  created_before?: string;
  limit?: number;
  cursor?: string;
}

const DEFAULT_PAGE_SIZE = 20;
/** Temporal refuses payloads over 2 MiB; the case object is both the workflow input and the memo. */
const MAX_CASE_BYTES = 1.5 * 1024 * 1024;
/** Decisions wait for the workflow to act (a payer submission included), within this bound. */
const DECISION_DEADLINE_MS = 30_000;
const CURSOR_MAC_BYTES = 16;
const BINDING_MEMO_KEY = 'binding';

/**
 * Cases over Temporal, for every case type: creation (idempotent), reads from workflow state,
 * lists from visibility, and decisions through workflow updates.
 */
@Injectable()
export class CasesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(TEMPORAL_CLIENT) private readonly temporalClient: Client,
    @Inject(CaseDocumentsRepository) private readonly documents: CaseDocumentsRepository,
    @Inject(IdempotencyRepository) private readonly idempotency: IdempotencyRepository,
    @Inject(CaseBindingEpoch) private readonly bindingEpoch: CaseBindingEpoch,
  ) {}

  async create<Input>(creation: CaseCreation<Input>): Promise<{ case: CaseRecord; replayed: boolean }> {
    const { spec, principal } = creation;
    this.assertStorable(creation.buildInput(newId(spec.idKind), [], new Date()).case);
    let caseId = newId(spec.idKind);
    let replayed = false;
    if (creation.idempotencyKey) {
      ({ resourceId: caseId, replayed } = await this.idempotency.claim({
        accountId: principal.accountId,
        key: creation.idempotencyKey,
        endpoint: `POST ${spec.path}`,
        requestSha256: createHash('sha256').update(JSON.stringify(creation.rawBody)).digest('hex'),
        candidateId: caseId,
      }));
    }
    const documents = await this.documents.store(principal.accountId, caseId, creation.documents);
    const input = creation.buildInput(caseId, documents, new Date());
    try {
      await this.startCase(spec, principal, creation.patientInternalId, input);
    } catch (error) {
      // A replay of a case that already finished: the case stands as it is, it never runs twice.
      if (replayed && error instanceof WorkflowExecutionAlreadyStartedError) {
        if (documents.length > 0) await this.documents.markStarted(caseId);
        return { case: await this.get(principal, spec, caseId), replayed };
      }
      // Without an Idempotency-Key no other request can share this case id, so what it stored goes
      // with it, unless the start may have happened after all (a timeout, a lost connection): the
      // sweep asks Temporal before it removes those. With a key, a retry starts the case with them.
      if (!creation.idempotencyKey && !mayHaveStarted(error)) {
        await this.documents.removeForCase(principal.accountId, caseId);
      }
      throw error;
    }
    // Outside the start's error handling: a database error here must never remove a started case's documents.
    if (documents.length > 0) await this.documents.markStarted(caseId);
    return { case: replayed ? await this.get(principal, spec, caseId) : input.case, replayed };
  }

  /** Refuses what Temporal could not store: a case object travels as workflow input and as memo. */
  assertStorable(record: CaseRecord): void {
    if (Buffer.byteLength(JSON.stringify(record)) > MAX_CASE_BYTES) {
      throw new ApiError(
        'payload_too_large',
        `This case is larger than ${MAX_CASE_BYTES / 1024 / 1024} MiB without its documents; shorten the notes or evidence, or send them as file assets.`,
      );
    }
  }

  private async startCase(
    spec: CaseTypeSpec,
    principal: Principal,
    patientInternalId: string,
    input: { case: CaseRecord },
  ): Promise<void> {
    const caseId = input.case.id;
    // The workflow's first step checks this binding, so only the API can start a case for an account.
    const binding = bindCaseToAccount(this.config.encryption!, caseId, principal.accountId);
    await this.temporalClient.workflow.start(spec.workflowType, {
      workflowId: caseId,
      taskQueue: this.config.temporal.taskQueue,
      args: [{ ...input, binding }],
      // A replayed request finds the workflow its first attempt started, running or not.
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      memo: memoOf(input.case, binding),
      typedSearchAttributes: [
        { key: ACCOUNT_ID, value: principal.accountId },
        { key: CASE_TYPE, value: spec.object },
        { key: CASE_STATUS, value: input.case.status },
        { key: PATIENT_REF, value: this.patientRef(principal.accountId, patientInternalId) },
      ],
    });
  }

  /**
   * Answered from the memo the workflow rewrites at every change a read can see: no worker and no
   * workflow task, so reads stay fast however busy the workers are (the `getCase` query stays for operators).
   */
  async get(principal: Principal, spec: CaseTypeSpec, id: string): Promise<CaseRecord> {
    return (await this.locate(principal, spec, id)).record;
  }

  async list(principal: Principal, spec: CaseTypeSpec, query: CaseListQuery) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const visibilityQuery = this.visibilityQuery(principal, spec, query);
    const response = await this.temporalClient.workflowService.listWorkflowExecutions({
      namespace: this.config.temporal.namespace,
      query: visibilityQuery,
      pageSize: limit,
      nextPageToken: query.cursor ? this.pageTokenOf(query.cursor, visibilityQuery) : undefined,
    });
    const converter = this.temporalClient.options.loadedDataConverter;
    const data = (
      await Promise.all(
        (response.executions ?? []).map(async (execution) => {
          const fields = execution.memo!.fields!;
          if (!sealedByUs(fields)) return [];
          const [record, request, binding] = await Promise.all(
            [fields[CASE_MEMO_KEY], fields[REQUEST_MEMO_KEY], fields[BINDING_MEMO_KEY]].map((payload) =>
              payload ? decodeFromPayloadsAtIndex<unknown>(converter, 0, [payload]) : undefined,
            ),
          );
          const startTime = new Date(Number(execution.startTime!.seconds) * 1000);
          const caseId = execution.execution!.workflowId!;
          return (await this.startedByApi(caseId, principal.accountId, binding, startTime))
            ? [caseFromMemo({ [CASE_MEMO_KEY]: record, [REQUEST_MEMO_KEY]: request })]
            : [];
        }),
      )
    ).flat();
    data.sort((a, b) => b.created_at.localeCompare(a.created_at));
    const nextCursor = response.nextPageToken?.length
      ? this.cursorOf(Buffer.from(response.nextPageToken), visibilityQuery)
      : null;
    return { object: 'list' as const, data, has_more: nextCursor !== null, next_cursor: nextCursor };
  }

  /** Sends a decision as a workflow update; a decision the status does not allow is 409 and changes nothing. */
  async decide<Decision>(
    principal: Principal,
    spec: CaseTypeSpec,
    id: string,
    update: UpdateDefinition<CaseRecord, [Decision]>,
    decision: Decision,
    /** Refuses a decision the case as it stands could not take, before anything is sent. */
    checkAgainst?: (record: CaseRecord) => void,
  ): Promise<CaseRecord> {
    const { handle, record } = await this.locate(principal, spec, id);
    if (FINAL_STATUSES.includes(record.status)) {
      throw new ApiError('invalid_state', `This case is ${record.status}; it accepts no more decisions.`);
    }
    checkAgainst?.(record);
    try {
      return await this.temporalClient.withDeadline(Date.now() + DECISION_DEADLINE_MS, () =>
        handle.executeUpdate(update, { args: [addressTo(id, decision as object) as Decision] }),
      );
    } catch (error) {
      if (isDeadlineExceeded(error)) {
        throw new ApiError(
          'service_unavailable',
          'The case did not act on the decision in time (no worker may be running). Read the case before sending it again.',
          [],
          { 'Retry-After': '5' },
        );
      }
      if (
        error instanceof WorkflowUpdateFailedError &&
        error.cause instanceof ApplicationFailure &&
        error.cause.type === INVALID_STATE
      ) {
        throw new ApiError('invalid_state', error.cause.message);
      }
      throw error;
    }
  }

  /**
   * Runs an argument-less update that answers once the workflow reached a point (e.g. its first
   * screening). Without a worker in time, the case as it stands is the answer.
   */
  async waitFor(
    principal: Principal,
    spec: CaseTypeSpec,
    id: string,
    update: UpdateDefinition<CaseRecord, []>,
    timeoutMs: number,
  ): Promise<CaseRecord> {
    const handle = this.temporalClient.workflow.getHandle(id);
    try {
      return await this.temporalClient.withDeadline(Date.now() + timeoutMs, () =>
        handle.executeUpdate(update),
      );
    } catch {
      return this.get(principal, spec, id);
    }
  }

  /** The case's workflow if it exists and belongs to the caller; any other case is simply not found. */
  private async locate(
    principal: Principal,
    spec: CaseTypeSpec,
    id: string,
  ): Promise<{ handle: WorkflowHandle; record: CaseRecord }> {
    const notFound = ApiError.notFound(
      `No ${spec.object.replace('_', ' ')} with this id exists in your account.`,
    );
    if (!hasIdPrefix(spec.idKind, id)) throw notFound;
    const handle = this.temporalClient.workflow.getHandle(id);
    try {
      const description = await handle.describe();
      const attributes = description.typedSearchAttributes;
      const memo = description.memo ?? {};
      if (
        attributes.get(ACCOUNT_ID) !== principal.accountId ||
        attributes.get(CASE_TYPE) !== spec.object ||
        !sealedByUs(description.raw.workflowExecutionInfo?.memo?.fields) ||
        !(await this.startedByApi(id, principal.accountId, memo[BINDING_MEMO_KEY], description.startTime))
      )
        throw notFound;
      return { handle, record: caseFromMemo(memo) };
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw notFound;
      throw error;
    }
  }

  /**
   * Reads trust the memo and the AccountId attribute, which whoever starts a workflow sets: a case
   * is shown only when its memo carries the API's binding of this case id to this account, or when
   * it was started before the API wrote bindings. A workflow started by someone else (a copy of
   * another case's encrypted memo included) is never shown, even before a worker refuses it.
   */
  private async startedByApi(
    caseId: string,
    accountId: string,
    binding: unknown,
    startTime: Date,
  ): Promise<boolean> {
    if (binding === undefined) return this.bindingEpoch.startedBefore(startTime);
    return (
      typeof binding === 'object' &&
      binding !== null &&
      caseBindingHolds(this.config.encryption!, caseId, accountId, binding as CaseBinding)
    );
  }

  private visibilityQuery(principal: Principal, spec: CaseTypeSpec, query: CaseListQuery): string {
    // Every value is an id, an enum, a hex digest or a re-rendered date: nothing free-form is interpolated.
    const clauses = [
      `${ACCOUNT_ID.name} = '${principal.accountId}'`,
      `${CASE_TYPE.name} = '${spec.object}'`,
      // A case that continued as new has a closed run per continuation beside its current run.
      `ExecutionStatus != 'ContinuedAsNew'`,
    ];
    if (query.status) clauses.push(`${CASE_STATUS.name} = '${query.status}'`);
    if (query.patient_internal_id) {
      clauses.push(
        `${PATIENT_REF.name} = '${this.patientRef(principal.accountId, query.patient_internal_id)}'`,
      );
    }
    if (query.created_after) clauses.push(`StartTime >= '${new Date(query.created_after).toISOString()}'`);
    if (query.created_before) clauses.push(`StartTime <= '${new Date(query.created_before).toISOString()}'`);
    // SQL visibility (the dev server, PostgreSQL) refuses ORDER BY; its own order is running cases by
    // start time, newest first, then closed cases by close time, newest first.
    return clauses.join(' AND ');
  }

  /**
   * Cursors are Temporal's page token sealed with an HMAC over the query it pages: a forged or
   * foreign cursor (another account's, another filter's) is refused here, before Temporal sees it.
   */
  private cursorOf(pageToken: Buffer, visibilityQuery: string): string {
    return Buffer.concat([pageToken, this.cursorMac(pageToken, visibilityQuery)]).toString('base64url');
  }

  private pageTokenOf(cursor: string, visibilityQuery: string): Buffer {
    const bytes = Buffer.from(cursor, 'base64url');
    const pageToken = bytes.subarray(0, Math.max(bytes.length - CURSOR_MAC_BYTES, 0));
    const mac = bytes.subarray(pageToken.length);
    const expected = this.cursorMac(pageToken, visibilityQuery);
    if (pageToken.length === 0 || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      throw new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: 'cursor', issue: 'must be a next_cursor this list returned for the same filters' },
      ]);
    }
    return pageToken;
  }

  private cursorMac(pageToken: Buffer, visibilityQuery: string): Buffer {
    return createHmac('sha256', this.config.cases.patientRefKey!)
      .update(visibilityQuery)
      .update('\n')
      .update(pageToken)
      .digest()
      .subarray(0, CURSOR_MAC_BYTES);
  }

  /** A keyed hash, so visibility can filter by patient without ever holding the patient's id. */
  private patientRef(accountId: string, internalId: string): string {
    return createHmac('sha256', this.config.cases.patientRefKey!)
      .update(`${accountId}:${internalId}`)
      .digest('hex')
      .slice(0, 32);
  }
}

/** The request is written once under its own key; the rest of the case is rewritten at each change. */
/** The API writes the binding beside the case; the workflow never rewrites it. */
function memoOf(record: CaseRecord, binding: CaseBinding): Record<string, unknown> {
  const { request, ...changing } = record as CaseRecord & { request?: unknown };
  return request === undefined
    ? { [CASE_MEMO_KEY]: record, [BINDING_MEMO_KEY]: binding }
    : { [CASE_MEMO_KEY]: changing, [REQUEST_MEMO_KEY]: request, [BINDING_MEMO_KEY]: binding };
}

/** The case as GET shows it; cases started before the split hold their request inside `case`. */
function caseFromMemo(memo: Record<string, unknown>): CaseRecord {
  const record = memo[CASE_MEMO_KEY] as CaseRecord;
  const request = memo[REQUEST_MEMO_KEY];
  return request === undefined ? record : ({ ...record, request } as CaseRecord);
}

/**
 * The API and the workers seal every memo field; the API's client still reads unsealed payloads, so
 * a memo written in plaintext by someone else in the namespace would otherwise be shown as the case.
 */
function sealedByUs(fields: Record<string, Payload> | null | undefined): boolean {
  return Object.values(fields ?? {}).every(isEncrypted);
}

const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;

function grpcCodeOf(error: unknown): number | undefined {
  // The SDK wraps gRPC errors in a ServiceError whose cause carries the code.
  return (
    (error as { code?: number; cause?: { code?: number } }).cause?.code ?? (error as { code?: number }).code
  );
}

function isDeadlineExceeded(error: unknown): boolean {
  return grpcCodeOf(error) === GRPC_DEADLINE_EXCEEDED;
}

/** The request may have reached Temporal before its answer was lost. */
function mayHaveStarted(error: unknown): boolean {
  const code = grpcCodeOf(error);
  return code === GRPC_DEADLINE_EXCEEDED || code === GRPC_UNAVAILABLE;
}
