import type { Type } from '@nestjs/common';
import type { UpdateDefinition, Workflow } from '@temporalio/common';

import type { Role, RoleRequirement } from '../../domain/accounts/roles';
import type { CaseBinding } from '../../domain/cases/case-binding';
import type { CaseKind } from '../../domain/cases/case-kind';
import type { CaseObjectType } from '../../domain/cases/case-kinds';
import type { CaseRecord, CaseTimings, DocumentRef } from '../../domain/cases/case-model';
import type { IdKind } from '../../domain/ids';
import type { AuditAction } from '../../infrastructure/audit/audit-event';
import type { CaseSettings } from '../../infrastructure/config/config';
import type { PublishedObjectName } from '../contract/published-objects';
import type { CaseConsole } from './case-console';

/** A document as it arrives: base64 under a name that says where in the request it was. */
export interface IncomingDocument {
  name: string;
  base64: string;
}

/** What every case workflow takes: its first case object and the account it belongs to. */
export interface CaseWorkflowInput {
  case: CaseRecord;
  accountId: string;
  binding?: CaseBinding;
}

/** The single argument a case workflow takes, read from the workflow function's own signature. */
export type WorkflowInput<W extends Workflow> = Parameters<W>[0] & CaseWorkflowInput;

/** What a new case's input is built from, besides the request itself. */
export interface CaseInputContext {
  caseId: string;
  accountId: string;
  /** The request's documents as stored, in the order `documents` named them. */
  documents: DocumentRef[];
  now: Date;
  settings: CaseSettings;
  /** The creating key's mode, which the case keeps for good. */
  livemode: boolean;
}

/** A decision on a case: `POST /{path}/{id}/{name}`, sent to the workflow as the update `message`. */
export interface CaseDecision {
  /** The route's last segment, also the controller method's name (src/app/operation-ids.ts reads it). */
  name: string;
  message: UpdateDefinition<CaseRecord, [unknown]>;
  body: Type<object>;
  /** Who may take it: a role, or any one of several. */
  role: RoleRequirement;
  auditAction: AuditAction;
  summary: string;
  /** Refuses, before anything is sent, a decision the case as it stands could not take. */
  checkAgainst?(record: CaseRecord, decision: object): void;
}

/**
 * One case type, as data: the generic controller (`caseController`), `CasesService` and the
 * Temporal repository read it. docs/architecture.md ("Adding a case type") lists what a new type
 * adds: its kind, workflow, this module, its DTOs and its console.
 * `object`, `idKind` and `workflowType` are its domain kind's (domain/cases/<type>.kind.ts).
 */
export interface CaseType<W extends Workflow = Workflow, Request extends object = object> {
  object: CaseObjectType;
  idKind: IdKind;
  /** Its case object's name in the API document (src/contract/published-objects.ts). */
  schema: PublishedObjectName;
  /** The URL path, without slashes; the controller's name and the API document's tag come from it. */
  path: string;
  /** The workflow's name in Temporal; `W` is its function's type, so the input and the start are type-checked. */
  workflowType: string;
  create: {
    body: Type<Request>;
    role: Role;
    summary: string;
    /** Refuses what the validators cannot judge alone (e.g. a catalog lookup). */
    check?(request: Request): void;
    /** The keyed patient reference lists filter by; never stored as it is. */
    patientInternalId(request: Request): string;
    /** Base64 documents to keep out of Temporal; the input receives their stored references. */
    documents?(request: Request): IncomingDocument[];
    /** The workflow input, built once the case id and the stored documents exist. */
    input(request: Request, context: CaseInputContext): WorkflowInput<W>;
    /** An update the create waits on (bounded) so its answer can show the workflow's first verdict. */
    answersAfter?: { message: UpdateDefinition<CaseRecord, []>; timeoutMs: number };
    /** The 201 body, whole, when the contract gives this type its own shape, and its published schema. */
    respond?: { schema: PublishedObjectName; body(record: CaseRecord): object };
  };
  list: { summary: string };
  /** `description` documents the object the GET answers, which the document has no schema for. */
  get: { summary: string; description?: string };
  decisions: CaseDecision[];
  /** Its console section, what its case page shows and its decisions as forms. */
  console: CaseConsole;
  /** Absent for types whose cases cannot be cancelled. */
  cancel?: { role: Role; summary: string };
  /**
   * Its workflow waits out connector outages (showing `attention`), so operators may retry a case
   * now or end it: `POST /{path}/{id}/retry` and `/fail`.
   */
  waitsOutOutages?: boolean;
}

/** A case type as its module writes it: what the API adds to its domain kind. */
export type CaseTypeDeclaration<W extends Workflow, Request extends object> = Omit<
  CaseType<W, Request>,
  'object' | 'idKind' | 'workflowType'
> & { kind: CaseKind<CaseObjectType, IdKind> };

/** A case type from its module's declaration, with its workflow and request types inferred. */
export function defineCaseType<W extends Workflow, Request extends object>({
  kind,
  ...type
}: CaseTypeDeclaration<W, Request>): CaseType<W, Request> {
  return { object: kind.object, idKind: kind.idKind, workflowType: kind.workflowType, ...type };
}

/** The payer's or program's answer, recorded by a reviewer when it came outside the connectors. */
export function outcomeDecision(
  message: CaseDecision['message'],
  body: CaseDecision['body'],
  summary: string,
): CaseDecision {
  return { name: 'outcome', message, body, role: 'reviewer', auditAction: 'case.outcome_recorded', summary };
}

/**
 * Timing of the human and payer waits, from configuration, fixed into each case of type `object` when
 * it starts, with the type's own outage deadline.
 */
export function caseTimingsOf(settings: CaseSettings, object: CaseObjectType): CaseTimings {
  return {
    reviewReminderMs: settings.reviewReminderMs,
    reviewExpiryMs: settings.reviewExpiryMs,
    payerPollIntervalMs: settings.payerPollIntervalMs,
    connectorRetry: settings.connectorRetry,
    outage: {
      firstRetryMs: settings.outage.firstRetryMs,
      longestRetryMs: settings.outage.longestRetryMs,
      deadlineMs: settings.outage.deadlineMs[object] ?? 0,
    },
  };
}
