import { createHash } from 'node:crypto';

import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure, UpdateDefinition, Workflow } from '@temporalio/common';

import { FINAL_STATUSES } from '../../domain/cases/case-model';
import { summaryOf } from '../../domain/cases/case-summary';
import type { CancelRequest, CaseRecord, CaseStatus } from '../../domain/cases/case-model';
import { detectDocumentFormat } from '../../domain/documents/document-format';
import { CONTENT_TYPES } from '../../domain/documents/document-reading';
import { DECISION_INVALID, INVALID_STATE } from '../../domain/failures';
import { cardsAmong } from '../../domain/payers/card-documents';
import type { Disagreement } from '../../domain/payers/insurance-card';
import { hasIdPrefix, newId } from '../../domain/ids';
import { caseFromSealedObject } from '../../domain/temporal/case-memo';
import { addressTo } from '../../domain/temporal/message-address';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import {
  ADMIT_EVERY_CASE,
  type CaseAdmission,
  type CaseAnnotations,
  NO_ANNOTATIONS,
} from './case-extensions';
import { keyedReference } from '../../infrastructure/crypto/keyed-reference';
import { CaseBindingEpoch } from '../../infrastructure/cases/case-binding-epoch';
import { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import type {
  CaseSummariesRepository,
  CaseSummaryFilter,
  SealedCaseRow,
} from '../../infrastructure/cases/case-summaries.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import type { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { IdempotencyRepository } from '../../infrastructure/idempotency/idempotency.repository';
import { keysetCursor, keysetPosition } from '../../infrastructure/storage/keyset-cursor';
import { bindCaseToAccount, caseMemoTrusted } from '../../infrastructure/temporal/case-binding';
import { isTemporalDeadlineExceeded, mayHaveStarted } from '../../infrastructure/temporal/outages';
import { requestCancellationUpdate } from '../../workflows/case.messages';
import { DEFAULT_PAGE_SIZE } from '../common/dto/page-query';
import { ApiError } from '../common/errors';
import { requireConnectorFor } from '../connectors/connectors.module';
import { claimingKey, type IdempotentAttempt } from '../idempotency/idempotency.module';
import { assertRequestStorable, assertStorable } from './case-size';
import type { CaseDecision, CaseType } from './case-type';
import { CaseExecution, CaseWorkflows } from './case-workflows';

/** Who creates a case, and what the edge read besides the validated body. */
export interface CaseCreator {
  principal: Principal;
  /** The raw request body, hashed for Idempotency-Key comparisons. */
  rawBody: unknown;
  idempotencyKey?: string;
}

export interface CaseListQuery {
  status?: CaseStatus;
  patient_internal_id?: string;
  created_after?: string;
  created_before?: string;
  limit?: number;
  cursor?: string;
}

/** Decisions wait for the workflow to act (a payer submission included), within this bound. */
const DECISION_DEADLINE_MS = 30_000;

/**
 * Cases for every case type: creation (idempotent, documents kept out of Temporal), reads and lists
 * of the caller's own cases, and decisions. Temporal itself is reached only through `CaseWorkflows`.
 */
export class CasesService {
  private readonly box: SecretBox;

  /** Built by `CasesModule.forRoot`, which owns every piece it is given. */
  constructor(
    private readonly config: AppConfig,
    private readonly workflows: CaseWorkflows,
    private readonly documents: CaseDocumentsRepository,
    private readonly idempotency: IdempotencyRepository,
    private readonly bindingEpoch: CaseBindingEpoch,
    private readonly connectors: Pick<ConnectorSettingsRepository, 'isConfigured'>,
    private readonly summaries: Pick<CaseSummariesRepository, 'listCaseObjects' | 'record'>,
    private readonly extensions: { admission: CaseAdmission; annotations: CaseAnnotations } = {
      admission: ADMIT_EVERY_CASE,
      annotations: NO_ANNOTATIONS,
    },
  ) {
    this.box = new SecretBox(config.encryption!);
  }

  async create<W extends Workflow, Request extends object>(
    type: CaseType<W, Request>,
    request: Request,
    creator: CaseCreator,
  ): Promise<{ case: CaseRecord; replayed: boolean }> {
    const { principal, idempotencyKey } = creator;
    if (principal.livemode) refuseMockResult(request);
    type.create.check?.(request);
    const incomingDocuments = type.create.documents?.(request) ?? [];
    assertRequestStorable(request, incomingDocuments);
    let caseId = newId(type.idKind);
    let replayed = false;
    if (idempotencyKey) {
      ({ resourceId: caseId, replayed } = await claimingKey(() =>
        this.idempotency.claim({
          accountId: principal.accountId,
          livemode: principal.livemode,
          key: idempotencyKey,
          endpoint: `POST /${type.path}`,
          requestSha256: createHash('sha256').update(JSON.stringify(creator.rawBody)).digest('hex'),
          candidateId: caseId,
        }),
      ));
    }
    // After the claim: a retry of a case that started answers with it, even if the connector has gone
    // or the prescriber's authorization lapsed since.
    if (!replayed) await this.admitNew(principal, type, request, caseId, idempotencyKey);
    const documents = await this.documents.store(principal.accountId, caseId, incomingDocuments);
    const input = type.create.input(request, {
      caseId,
      accountId: principal.accountId,
      documents,
      now: new Date(),
      settings: this.config.cases,
      livemode: principal.livemode,
    });
    try {
      assertStorable(input.case);
    } catch (error) {
      // Nothing of a request Temporal could never hold stays behind, its Idempotency-Key included.
      if (!replayed) await this.forgetCreation(principal, caseId, idempotencyKey);
      throw error;
    }
    const patientRef = this.patientRef(principal.accountId, type.create.patientInternalId(request));
    try {
      // The workflow's first step checks this binding, so only the API can start a case for an account.
      const binding = bindCaseToAccount(this.config.encryption!, caseId, principal.accountId);
      await this.workflows.start(type, { ...input, binding }, patientRef);
    } catch (error) {
      // A replay of a case that already finished: the case stands as it is, it never runs twice.
      if (replayed && error instanceof WorkflowExecutionAlreadyStartedError) {
        if (documents.length > 0) await this.documents.markStarted(caseId);
        return { case: await this.get(principal, type, caseId), replayed };
      }
      // Without an Idempotency-Key no other request can share this case id, so what it stored goes
      // with it, unless the start may have happened after all (a timeout, a lost connection): the
      // sweep asks Temporal before it removes those. With a key, a retry starts the case with them.
      if (!idempotencyKey && !mayHaveStarted(error)) {
        await this.documents.removeForCase(principal.accountId, caseId);
      }
      throw error;
    }
    // Outside the start's error handling: a database error here must never remove a started case's documents.
    if (documents.length > 0) await this.documents.markStarted(caseId);
    if (!replayed) await this.listAtOnce(input.case, { accountId: principal.accountId, patientRef });
    return {
      case: replayed
        ? await this.get(principal, type, caseId)
        : this.extensions.annotations.ofNew(type, input.case),
      replayed,
    };
  }

  async get(principal: Principal, type: CaseType, id: string): Promise<CaseRecord> {
    // Before the annotations' read starts: an id that cannot be this type's costs no query.
    if (!hasIdPrefix(type.idKind, id)) throw this.notFound(type);
    return this.annotated(
      principal,
      type,
      id,
      this.locate(principal, type, id).then(({ record }) => record),
    );
  }

  /**
   * The caller's cases of these ids, each as `get` reads it or undefined where `get` answers 404,
   * with what other features add to them read once for all of them.
   */
  async getEach(principal: Principal, type: CaseType, ids: string[]): Promise<Array<CaseRecord | undefined>> {
    const [executions, annotate] = await readSideBySide(
      Promise.all(ids.map((id) => this.find(principal, type, id))),
      this.extensions.annotations.read(principal, type, ids),
    );
    return executions.map((execution) => execution && annotate(execution.record));
  }

  /**
   * A case as its caller reads it anywhere: with what other features add to it (`feedback[]`), read
   * beside the workflow's answer rather than after it.
   */
  private async annotated(
    principal: Principal,
    type: CaseType,
    id: string,
    reading: Promise<CaseRecord>,
  ): Promise<CaseRecord> {
    const [record, annotate] = await readSideBySide(
      reading,
      this.extensions.annotations.read(principal, type, [id]),
    );
    return annotate(record);
  }

  /**
   * One document of a case of the account, as it was sent, with the content type its bytes show
   * (never the sender's word): 404 once the case is gone (purged, erased) or when it holds no such document.
   */
  async document(
    principal: Principal,
    type: CaseType,
    caseId: string,
    documentId: string,
  ): Promise<{ name: string; contentType: string; bytes: Buffer }> {
    await this.locate(principal, type, caseId);
    const document = await this.documents.readOfCase(principal.accountId, caseId, documentId);
    if (!document) throw ApiError.notFound('This case holds no document with this id.');
    return { ...document, contentType: CONTENT_TYPES[detectDocumentFormat(document.bytes)] };
  }

  /**
   * The image the reader kept of one page of a case's document, for the console (JPEG): 404 when the
   * case is gone, holds no such document, or its reading kept no image of that page.
   */
  async documentPagePreview(
    principal: Principal,
    type: CaseType,
    caseId: string,
    documentId: string,
    page: number,
  ): Promise<Buffer> {
    await this.locate(principal, type, caseId);
    const preview = await this.documents.pagePreviewOfCase(principal.accountId, caseId, documentId, page);
    if (!preview) throw ApiError.notFound('This case holds no image of this document page.');
    return preview;
  }

  /**
   * Where the two readers of a case's card (already found) read a field differently: both readings, for
   * a reviewer to compare with the card. PHI, shown in the console only, never in the API.
   */
  async cardDisagreements(principal: Principal, record: CaseRecord): Promise<Disagreement[]> {
    if (!(record as { insurance_card?: unknown }).insurance_card) return [];
    const documents = await this.documents.insuranceReadingsOfCase(principal.accountId, record.id);
    const request = (record as { request?: { insurance_content?: { member_id?: string } | null } }).request;
    return cardsAmong(documents, request?.insurance_content?.member_id)?.primary.disagreements ?? [];
  }

  /** Which documents of a case of the account (already found) have page images to show. */
  async documentsWithPagePreviews(principal: Principal, caseId: string): Promise<Set<string>> {
    return this.documents.withPagePreviews(principal.accountId, caseId);
  }

  /**
   * A case of any account, for the platform's operators (who also decode any account's payloads for
   * Temporal Web): found only if it verifiably belongs to the account it names, which is returned so
   * the read is audited there.
   */
  async getForOperator(type: CaseType, id: string): Promise<{ record: CaseRecord; accountId: string }> {
    const notFound = () => ApiError.notFound(`No ${type.object.replace('_', ' ')} with this id exists.`);
    if (!hasIdPrefix(type.idKind, id)) throw notFound();
    const execution = await this.workflows.describe(id);
    if (!execution?.accountId || execution.object !== type.object) throw notFound();
    if (!(await this.ownedBy(execution, execution.accountId))) throw notFound();
    return { record: execution.record, accountId: execution.accountId };
  }

  /**
   * The caller's cases of one type and mode from the read model, newest first across pages, each
   * page full while more follow. A row the backfill has not filled yet is read from its memo.
   */
  async list(principal: Principal, type: CaseType, query: CaseListQuery) {
    const scope = { accountId: principal.accountId, livemode: principal.livemode };
    const filter: CaseSummaryFilter = {
      object: type.object,
      ...(query.status && { status: [query.status] }),
      ...(query.patient_internal_id && {
        patientRef: this.patientRef(principal.accountId, query.patient_internal_id),
      }),
      ...(query.created_after && { createdFrom: new Date(query.created_after) }),
      // `created_before` includes its instant; the read model's bound excludes it, and creation
      // times are whole milliseconds.
      ...(query.created_before && { createdTo: new Date(Date.parse(query.created_before) + 1) }),
    };
    const after = query.cursor ? keysetPosition(query.cursor) : undefined;
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.summaries.listCaseObjects(scope, filter, limit + 1, after);
    const shown = rows.slice(0, limit);
    const [records, annotate] = await readSideBySide(
      Promise.all(shown.map((row) => this.caseOfRow(row, principal.accountId))),
      this.extensions.annotations.read(
        principal,
        type,
        shown.map((row) => row.case_id),
      ),
    );
    const data = records
      .filter((record): record is CaseRecord => record !== undefined)
      .map((record) => annotate(record));
    const last = shown[shown.length - 1];
    const nextCursor = rows.length > limit && last ? keysetCursor(last.page_position, last.case_id) : null;
    return { object: 'list' as const, data, has_more: nextCursor !== null, next_cursor: nextCursor };
  }

  /**
   * Writes a new case's read model row as its lifecycle's first step will, so the caller's next list
   * shows it without waiting for a worker. That step writes the same row again, so a failure here
   * costs only that wait, never the case.
   */
  private async listAtOnce(
    record: CaseRecord,
    owner: { accountId: string; patientRef: string },
  ): Promise<void> {
    await this.summaries
      .record(summaryOf(record, owner), this.box.sealText(JSON.stringify(record)))
      .catch(() => undefined);
  }

  private async caseOfRow(row: SealedCaseRow, accountId: string): Promise<CaseRecord | undefined> {
    if (row.case_sealed !== null) return caseFromSealedObject(JSON.parse(this.box.openText(row.case_sealed)));
    const execution = await this.workflows.describe(row.case_id);
    return execution && (await this.ownedBy(execution, accountId)) ? execution.record : undefined;
  }

  /**
   * Sends one of the type's decisions; a decision the status does not allow is 409 and changes
   * nothing. Under an Idempotency-Key the update id is the key's, so Temporal runs it once however
   * often it is sent. A retry resuming an interrupted attempt finds the case even if that attempt
   * closed it, and still checks the body against it: the first attempt may never have sent anything,
   * and each check lets through a case its status says has moved on (the workflow's answer then decides).
   */
  async decide(
    principal: Principal,
    type: CaseType,
    id: string,
    decision: CaseDecision,
    payload: object,
    attempt?: IdempotentAttempt,
  ): Promise<CaseRecord> {
    const { record } = attempt?.resumed
      ? await this.locate(principal, type, id)
      : await this.locateOpen(principal, type, id);
    decision.checkAgainst?.(record, payload);
    return this.annotated(
      principal,
      type,
      id,
      this.sendUpdate(id, decision.message, payload, attempt?.boundId),
    );
  }

  /**
   * An operator's message to a case of any account waiting out an outage (`retryNow`, `failNow`):
   * 409 when the case is final or shows no `attention`. Answers the account that owns the case, for
   * the audit trail.
   */
  async actForOperator(
    type: CaseType,
    id: string,
    message: UpdateDefinition<CaseRecord, [unknown]>,
    payload: object,
    attempt?: IdempotentAttempt,
  ): Promise<{ record: CaseRecord; accountId: string }> {
    const { record, accountId } = await this.getForOperator(type, id);
    if (!attempt?.resumed && FINAL_STATUSES.includes(record.status))
      throw new ApiError('invalid_state', `This case is ${record.status}; nothing is left to retry or end.`);
    return { record: await this.sendUpdate(id, message, payload, attempt?.boundId), accountId };
  }

  /** Asks the case's workflow to stop; a final case answers 409. Idempotent as `decide` is. */
  async cancel(
    principal: Principal,
    type: CaseType,
    id: string,
    request: CancelRequest,
    attempt?: IdempotentAttempt,
  ): Promise<CaseRecord> {
    if (attempt?.resumed) await this.locate(principal, type, id);
    else await this.locateOpen(principal, type, id);
    return this.annotated(
      principal,
      type,
      id,
      this.sendUpdate(id, requestCancellationUpdate, request, attempt?.boundId),
    );
  }

  /**
   * Runs an argument-less update that answers once the workflow reached a point (e.g. its first
   * screening). Without a worker in time, the case as it stands is the answer.
   */
  async waitFor(
    principal: Principal,
    type: CaseType,
    id: string,
    message: UpdateDefinition<CaseRecord, []>,
    timeoutMs: number,
  ): Promise<CaseRecord> {
    const reaching = this.workflows
      .executeUpdate(id, message, [], Date.now() + timeoutMs)
      .catch(async () => (await this.locate(principal, type, id)).record);
    return this.annotated(principal, type, id, reaching);
  }

  private async sendUpdate(
    id: string,
    message: UpdateDefinition<CaseRecord, [unknown]>,
    payload: object,
    updateId: string | undefined,
  ): Promise<CaseRecord> {
    try {
      return await this.workflows.executeUpdate(
        id,
        message,
        [addressTo(id, payload)],
        Date.now() + DECISION_DEADLINE_MS,
        updateId,
      );
    } catch (error) {
      if (isTemporalDeadlineExceeded(error)) {
        throw new ApiError(
          'service_unavailable',
          'The case did not act on the decision in time (no worker may be running). Read the case before sending it again.',
          [],
          { 'Retry-After': '5' },
        );
      }
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
        if (error.cause.type === INVALID_STATE) throw new ApiError('invalid_state', error.cause.message);
        // The case had moved into the status the decision needs before its memo showed it, so the
        // workflow checked the body against the case instead.
        if (error.cause.type === DECISION_INVALID) {
          throw new ApiError(
            'validation_error',
            'The request is invalid; see details.',
            (error.cause.details?.[0] ?? []) as Array<{ field: string; issue: string }>,
          );
        }
      }
      // The case was open when it was read, so its workflow closed since: a concurrent decision or
      // cancellation made it final first.
      if (error instanceof WorkflowNotFoundError) {
        throw new ApiError(
          'invalid_state',
          'This case became final before this request reached it; it accepts no more decisions.',
        );
      }
      throw error;
    }
  }

  private async locateOpen(principal: Principal, type: CaseType, id: string): Promise<CaseExecution> {
    const execution = await this.locate(principal, type, id);
    if (FINAL_STATUSES.includes(execution.record.status)) {
      throw new ApiError(
        'invalid_state',
        `This case is ${execution.record.status}; it accepts no more decisions.`,
      );
    }
    return execution;
  }

  /**
   * The case's workflow if it exists and belongs to the caller, in the caller's mode; any other
   * case, another mode's included, is simply not found.
   */
  private async locate(principal: Principal, type: CaseType, id: string): Promise<CaseExecution> {
    const execution = await this.find(principal, type, id);
    if (!execution) throw this.notFound(type);
    return execution;
  }

  /** The case's workflow as `locate` finds it; undefined for any case `locate` answers 404. */
  private async find(principal: Principal, type: CaseType, id: string): Promise<CaseExecution | undefined> {
    if (!hasIdPrefix(type.idKind, id)) return undefined;
    const execution = await this.workflows.describe(id);
    if (
      !execution ||
      execution.accountId !== principal.accountId ||
      execution.object !== type.object ||
      !(await this.ownedBy(execution, principal.accountId)) ||
      execution.record.livemode !== principal.livemode
    )
      return undefined;
    return execution;
  }

  /** Made only when thrown: an error captures its stack, a tenth of a millisecond on every read. */
  private notFound(type: CaseType): ApiError {
    return ApiError.notFound(`No ${type.object.replace('_', ' ')} with this id exists in your account.`);
  }

  /**
   * Reads trust the memo and the AccountId attribute, which whoever starts a workflow sets: a case
   * is shown only when its memo is sealed by us and carries the API's binding of this case id to
   * this account, or when it was started before the API wrote bindings. A workflow started by
   * someone else (a copy of another case's encrypted memo included) is never shown, even before a
   * worker refuses it.
   */
  private async ownedBy(execution: CaseExecution, accountId: string): Promise<boolean> {
    if (!execution.sealedByUs) return false;
    return caseMemoTrusted(
      this.config.encryption!,
      { caseId: execution.caseId, accountId, binding: execution.binding },
      () => this.bindingEpoch.startedBefore(execution.startTime),
    );
  }

  /**
   * What a new case must pass before anything of it is stored: a live case's connector, and the other
   * features' admission (a prescriber's authorization). A refusal gives the Idempotency-Key back.
   */
  private async admitNew(
    principal: Principal,
    type: CaseType,
    request: object,
    caseId: string,
    idempotencyKey: string | undefined,
  ): Promise<void> {
    try {
      await this.extensions.admission.admit(principal, type, request);
      if (principal.livemode)
        await requireConnectorFor(this.connectors, principal.accountId, type.object, request);
    } catch (error) {
      if (idempotencyKey) await this.idempotency.release(principal, idempotencyKey, caseId);
      throw error;
    }
  }

  /** Removes what a refused creation stored: its documents and its claim on the Idempotency-Key. */
  private async forgetCreation(principal: Principal, caseId: string, idempotencyKey: string | undefined) {
    await this.documents.removeForCase(principal.accountId, caseId);
    if (idempotencyKey) await this.idempotency.release(principal, idempotencyKey, caseId);
  }

  private patientRef(accountId: string, internalId: string): string {
    return patientRefOf(this.config.cases.patientRefKey!, accountId, internalId);
  }
}

/**
 * docs/decisions.md#modes: a live key's case goes to the real payer, so a scripted answer has no place in
 * it. Refused before anything is stored, naming the field.
 */
function refuseMockResult(request: object): void {
  const { mock_result: mockResult } = request as { mock_result?: unknown };
  if (mockResult === undefined || mockResult === null) return;
  throw new ApiError(
    'validation_error',
    'mock_result is for test keys only: a live key sends the case to the real payer, whose answer cannot be scripted. Leave mock_result out, or send the request with a test key (hak_test_…).',
    [{ field: 'mock_result', issue: 'not accepted in live mode' }],
  );
}

/**
 * Two reads side by side, so the second costs no time of its own; the first's error wins over the
 * second's, so a case that is not found is 404 whatever reading its annotations did.
 */
async function readSideBySide<First, Second>(
  first: Promise<First>,
  second: Promise<Second>,
): Promise<[First, Second]> {
  const [one, two] = await Promise.allSettled([first, second]);
  if (one.status === 'rejected') throw one.reason;
  if (two.status === 'rejected') throw two.reason;
  return [one.value, two.value];
}

/**
 * A keyed hash, so visibility (the `PatientRef` search attribute) and the case summaries can filter
 * by patient without ever holding the patient's id.
 */
export function patientRefOf(key: Buffer, accountId: string, internalId: string): string {
  return keyedReference(key, `${accountId}:${internalId}`);
}
