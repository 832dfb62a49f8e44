import {
  Body,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
  Type,
} from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { CONTENT_TYPES } from '../../domain/documents/document-reading';
import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { requestFailNowUpdate, requestRetryNowUpdate } from '../../workflows/case.messages';
import { ApiController } from '../common/api-controller';
import { Audited } from '../common/audited.decorator';
import { CurrentPrincipal, RequiresRole } from '../common/route-access';
import type { RoleRequirement } from '../../domain/accounts/roles';
import { success } from '../common/envelope';
import type { ContextualRequest } from '../common/request-context';
import { answering, ApiDecisionConflict } from '../contract/answers';
import {
  IdempotencyKeyHeader,
  CurrentIdempotentAttempt,
  Idempotent,
} from '../idempotency/idempotency.module';
import type { IdempotentAttempt } from '../idempotency/idempotency.module';
import { plain } from './case-request-mapping';
import { CancelCaseDto, FailCaseDto, ListCasesQueryDto } from './case-requests.dto';
import type { CaseType } from './case-type';
import { CaseListQuery, CasesService } from './cases.service';

type Handler = (this: { cases: CasesService }, ...args: never[]) => Promise<unknown>;
/** A route parameter: how Nest fills it, and the class its validation and the API document see. */
type RouteParameter = [ParameterDecorator, Type | typeof Object | typeof String];

const principalParameter: RouteParameter = [CurrentPrincipal(), Object];
const idParameter: RouteParameter = [Param('id'), String];
const attemptParameter: RouteParameter = [CurrentIdempotentAttempt(), Object];

/**
 * The HTTP routes of one case type, read from its module: create, list, get, each decision and
 * cancel. Nest and the API document read routes from decorated classes, so the class is decorated
 * here as a hand-written controller would be, under the same class and method names (the
 * document's operation ids are made from them), with each body's DTO class as its declared type
 * (what validation checks).
 */
export function caseController(type: CaseType): Type<unknown> {
  class CaseController {
    constructor(@Inject(CasesService) readonly cases: CasesService) {}
  }
  const words = type.path.split('-');
  const controllerName = `${words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('')}Controller`;
  Object.defineProperty(CaseController, 'name', { value: controllerName });
  Reflect.decorate([ApiController(type.path)], CaseController);
  const define = (
    name: string,
    decorators: MethodDecorator[],
    parameters: RouteParameter[],
    handler: Handler,
  ) => defineRoute(CaseController, name, decorators, parameters, handler);

  define(
    'create',
    [
      Post(),
      RequiresRole(type.create.role),
      ApiHeader({ name: 'Idempotency-Key', required: false }),
      Audited('case.created', type.object),
      ApiOperation({ summary: type.create.summary }),
      type.create.respond ? answering(type.create.respond.schema, 'bare') : answering(type.schema, 'object'),
    ],
    [
      principalParameter,
      [Body(), type.create.body],
      [IdempotencyKeyHeader(), Object],
      [Req(), Object],
      [Res({ passthrough: true }), Object],
    ],
    async function (
      principal: Principal,
      body: object,
      idempotencyKey: string | undefined,
      req: Request,
      res: Response,
    ) {
      const created = await this.cases.create(type, plain(body), {
        principal,
        rawBody: req.body,
        idempotencyKey,
      });
      if (created.replayed) res.setHeader('Idempotent-Replayed', 'true');
      const { answersAfter, respond } = type.create;
      const record = answersAfter
        ? await this.cases.waitFor(
            principal,
            type,
            created.case.id,
            answersAfter.message,
            answersAfter.timeoutMs,
          )
        : created.case;
      return respond ? respond.body(record) : success(record);
    },
  );

  define(
    'list',
    [
      Get(),
      Audited('case.listed', type.object),
      ApiOperation({ summary: type.list.summary }),
      answering(type.schema, 'list'),
    ],
    [principalParameter, [Query(), ListCasesQueryDto]],
    async function (principal: Principal, query: CaseListQuery) {
      return success(await this.cases.list(principal, type, query));
    },
  );

  define(
    'get',
    [
      Get(':id'),
      Audited('case.read', type.object),
      ApiOperation(getOperation(type)),
      answering(type.schema, 'object'),
    ],
    [principalParameter, idParameter],
    async function (principal: Principal, id: string) {
      return success(await this.cases.get(principal, type, id));
    },
  );

  if (type.create.documents) {
    define(
      'getDocument',
      [
        Get(':id/documents/:document_id'),
        Audited('document.read', type.object),
        ApiOperation({
          summary: `Download a document of a ${type.object.replace('_', ' ')}, as it was sent`,
          description:
            'The original bytes, with the content type they show (whatever type was declared), as an ' +
            'attachment, never cached. 404 once the case is purged or erased. Audited as `document.read` ' +
            '(the case as target, the document id in its details).',
        }),
        ApiOkResponse({
          description: "The document's bytes, in the type they show.",
          content: Object.fromEntries(
            Object.values(CONTENT_TYPES).map((contentType) => [
              contentType,
              { schema: { type: 'string', format: 'binary' } },
            ]),
          ),
        }),
      ],
      [principalParameter, idParameter, [Param('document_id'), String], [Res({ passthrough: true }), Object]],
      async function (principal: Principal, id: string, documentId: string, res: Response) {
        const document = await this.cases.document(principal, type, id, documentId);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
        return new StreamableFile(document.bytes, {
          type: document.contentType,
          disposition: attachmentDisposition(document.name),
          length: document.bytes.length,
        });
      },
    );
  }

  for (const decision of type.decisions) {
    define(
      decision.name,
      [
        ...caseActionDecorators(type, decision.name, decision.role, decision.summary),
        Audited(decision.auditAction, type.object),
      ],
      [principalParameter, idParameter, [Body(), decision.body], attemptParameter],
      async function (principal: Principal, id: string, body: object, attempt?: IdempotentAttempt) {
        return success(await this.cases.decide(principal, type, id, decision, plain(body), attempt));
      },
    );
  }

  if (type.cancel) {
    define(
      'cancel',
      [
        ...caseActionDecorators(type, 'cancel', type.cancel.role, type.cancel.summary),
        Audited('case.cancelled', type.object),
      ],
      [principalParameter, idParameter, [Body(), CancelCaseDto], attemptParameter],
      async function (principal: Principal, id: string, body: CancelCaseDto, attempt?: IdempotentAttempt) {
        return success(await this.cases.cancel(principal, type, id, plain(body), attempt));
      },
    );
  }
  if (type.waitsOutOutages) defineOperatorActions(type, define);
  return CaseController;
}

/**
 * An operator's retry and end of a case waiting out a connector outage, for a case of any account
 * (operators belong to none); audited in the trail of the account that owns the case.
 */
function defineOperatorActions(
  type: CaseType,
  define: (
    name: string,
    decorators: MethodDecorator[],
    parameters: RouteParameter[],
    handler: Handler,
  ) => void,
): void {
  define(
    'retry',
    [
      ...caseActionDecorators(
        type,
        'retry',
        'operator',
        'Call the connector again now, for a case waiting out an outage (operators only)',
      ),
      Audited('case.retried_by_operator', type.object),
    ],
    [idParameter, [Req(), Object], attemptParameter],
    async function (id: string, req: ContextualRequest, attempt?: IdempotentAttempt) {
      const acted = await this.cases.actForOperator(type, id, requestRetryNowUpdate, {}, attempt);
      req.context.actedForAccountId = acted.accountId;
      return success(acted.record);
    },
  );
  define(
    'fail',
    [
      ...caseActionDecorators(
        type,
        'fail',
        'operator',
        'End a case waiting out an outage as failed, with a reason (operators only)',
      ),
      Audited('case.failed_by_operator', type.object),
    ],
    [idParameter, [Body(), FailCaseDto], [Req(), Object], attemptParameter],
    async function (id: string, body: FailCaseDto, req: ContextualRequest, attempt?: IdempotentAttempt) {
      const acted = await this.cases.actForOperator(type, id, requestFailNowUpdate, plain(body), attempt);
      req.context.actedForAccountId = acted.accountId;
      return success(acted.record);
    },
  );
}

/**
 * What the API document says of a case's GET: its type's own words, what it read of its documents
 * where it takes any, and `attention` where it applies.
 */
function getOperation(type: CaseType): CaseType['get'] {
  const documents =
    '`documents[]` lists each document the case read ({ document_id, name, type, sha256, size_bytes, ' +
    'reading: { status (read, partly_read, unreadable, unsupported, not_read), method, pages, pages_read, confidence, ' +
    'reason } }); benefit verifications and prior authorizations that read an insurance card image or PDF ' +
    'show `insurance_card` ({ scanned: fields read with confidence, each { value, confidence }; unread; ' +
    'discrete; used: each field with { value, source: discrete | card | reviewer }; conflicts: [{ field, discrete, card }]; other_cards: [{ payer_name, member_id }], cards of other plans ' +
    'sent with it, never merged; error: null, or { code: insurance_card_unreadable | ' +
    'insurance_card_member_id_unreadable | insurance_document_not_a_card, message } when the card gave no member id }). ' +
    'docs/documents.md.';
  const attention =
    '`attention` ({ reason, since, next_retry_at }) is set while the case waits out a connector outage, ' +
    'and null otherwise (docs/workflows.md, "Connector outages").';
  const parts = [
    type.get.description,
    type.create.documents ? documents : undefined,
    type.waitsOutOutages ? attention : undefined,
  ];
  return { ...type.get, description: parts.filter(Boolean).join(' ') };
}

/**
 * A POST on one case that answers 200 with the case, or 409 when the case is not in a state for it;
 * its Temporal update is keyed by the Idempotency-Key, so a retry resumes it.
 */
function caseActionDecorators(
  type: CaseType,
  name: string,
  role: RoleRequirement,
  summary: string,
): MethodDecorator[] {
  return [
    Post(`:id/${name}`),
    Idempotent({ resumable: true }),
    ApiDecisionConflict(),
    HttpCode(200),
    RequiresRole(role),
    ApiOperation({ summary }),
    answering(type.schema, 'object'),
  ];
}

function defineRoute(
  controller: Type<unknown>,
  name: string,
  decorators: MethodDecorator[],
  parameters: RouteParameter[],
  handler: Handler,
): void {
  const prototype = controller.prototype as object;
  // Nest's explorers key parameter metadata and operation ids by the function's own name.
  Object.defineProperty(handler, 'name', { value: name });
  Object.defineProperty(prototype, name, { value: handler, writable: true, configurable: true });
  parameters.forEach(([decorate], index) => decorate(prototype, name, index));
  Reflect.defineMetadata(
    'design:paramtypes',
    parameters.map(([, declaredType]) => declaredType),
    prototype,
    name,
  );
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name)!;
  Object.defineProperty(
    prototype,
    name,
    Reflect.decorate(decorators, prototype, name, descriptor) ?? descriptor,
  );
}

/**
 * `attachment` with the document's name (RFC 6266): an ASCII fallback for old clients, and the name
 * itself percent-encoded as UTF-8 (RFC 8187), so no name can break out of the header.
 */
function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRFC8187(name)}`;
}

function encodeRFC8187(value: string): string {
  return encodeURIComponent(value).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
