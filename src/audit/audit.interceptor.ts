import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Response } from 'express';
import { concatMap, Observable } from 'rxjs';

import type { AuditDetails } from '../../infrastructure/audit/audit-event';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import type { ContextualRequest } from '../common/request-context';
import { actorOf } from '../common/actor';
import { AUDITED_ROUTE, AuditedRoute } from '../common/audited.decorator';

/** Query parameters that page a list rather than filter it. */
const PAGING_PARAMETERS = new Set(['limit', 'cursor']);

interface AnsweredData {
  id?: unknown;
  object?: unknown;
  data?: unknown;
}

/**
 * Writes the audit event of an `@Audited` route after the handler succeeded and before the answer
 * leaves: a failed write fails the request, so no audited action goes unrecorded. Failed requests
 * changed and revealed nothing and are not recorded.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(AuditRepository) private readonly audit: AuditRepository,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.reflector.get<AuditedRoute | undefined>(AUDITED_ROUTE, context.getHandler());
    if (!route) return next.handle();
    const request = context.switchToHttp().getRequest<ContextualRequest>();
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      concatMap(async (body: unknown) => {
        await this.recordAnswered(route, request, response, body);
        return body;
      }),
    );
  }

  private async recordAnswered(
    route: AuditedRoute,
    request: ContextualRequest,
    response: Response,
    body: unknown,
  ): Promise<void> {
    const answered = ((body as { data?: unknown } | undefined)?.data ?? {}) as AnsweredData;
    const routeId = typeof request.params?.id === 'string' ? request.params.id : undefined;
    const answeredId = typeof answered.id === 'string' ? answered.id : undefined;
    const details: AuditDetails = {};
    if (answered.object === 'list') {
      details.filters = Object.keys(request.query ?? {})
        .filter((name) => !PAGING_PARAMETERS.has(name))
        .sort();
      details.result_ids = ((answered.data ?? []) as AnsweredData[])
        .map((item) => item.id)
        .filter((id): id is string => typeof id === 'string');
    }
    if (typeof request.params?.document_id === 'string') details.document_id = request.params.document_id;
    if (response.getHeader('Idempotent-Replayed') === 'true') details.idempotent_replay = true;
    await this.audit.record([
      {
        accountId: request.context.actedForAccountId ?? request.context.principal?.accountId ?? null,
        actor: actorOf(request.context),
        action: route.action,
        target: { object: route.object, id: routeId ?? answeredId ?? null },
        requestId: request.context.requestId,
        details,
      },
    ]);
  }
}
