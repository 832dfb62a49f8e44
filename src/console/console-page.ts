import {
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  type PipeTransform,
  Res,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';

import type { AuditAction, AuditDetails, AuditTarget } from '../../infrastructure/audit/audit-event';
import type { ContextualRequest } from '../common/request-context';
import { ConsoleAudit, type UserAction } from './console-audit';
import { csrfField, type PageContent, sendPage } from './layout';
import type { Html } from './views/html';

/**
 * A console request and the response its handler answers on: a whole page, or, after a form, a
 * redirect to the page that shows what the form did. What the person does through it is audited
 * with the request's context.
 */
export class ConsolePage {
  constructor(
    readonly req: ContextualRequest,
    readonly res: Response,
    private readonly audits: ConsoleAudit,
  ) {}

  /** Records an action of the signed-in person; see `ConsoleAudit.record`. */
  audit(
    action: AuditAction,
    target: AuditTarget | null,
    details?: AuditDetails,
    ownerAccountId?: string,
  ): Promise<void> {
    return this.audits.record(this.req, action, target, details, ownerAccountId);
  }

  /** Records an action of a person not yet signed in; see `ConsoleAudit.recordUserAction`. */
  auditUserAction(
    action: UserAction,
    user: { id: string; account_id: string },
    details?: AuditDetails,
  ): Promise<void> {
    return this.audits.recordUserAction(this.req, action, user, details);
  }

  /** Sends a whole console page; see `sendPage`. */
  send(content: PageContent, status = 200): void {
    sendPage(this.req, this.res, content, status);
  }

  /** After a form: 303, so the browser GETs the next page and reloading it posts nothing again. */
  seeOther(path: string): void {
    this.res.redirect(303, path);
  }

  /** The hidden field every console form carries. */
  csrf(): Html {
    return csrfField(this.req, this.res);
  }
}

type Exchange = Pick<ConsolePage, 'req' | 'res'>;

const exchangeOf = createParamDecorator((_data: unknown, context: ExecutionContext): Exchange => ({
  req: context.switchToHttp().getRequest(),
  res: context.switchToHttp().getResponse(),
}));

/** Nest builds a parameter's pipes with the controller's module, which provides the console's audit. */
@Injectable()
class ConsolePageOf implements PipeTransform<Exchange, ConsolePage> {
  constructor(@Inject(ConsoleAudit) private readonly audits: ConsoleAudit) {}

  transform({ req, res }: Exchange): ConsolePage {
    return new ConsolePage(req, res, this.audits);
  }
}

/**
 * The handler's `ConsolePage`. The handler answers on the page's response itself, which Nest learns
 * only from an `@Res()` parameter: one is declared past the handler's own parameters, where nothing
 * reads it, so Nest sends nothing after the handler. Parameters are decorated last first, so those
 * after the page are known here; `length` counts those without a default value.
 */
export const Page = (): ParameterDecorator => (target, key, index) => {
  exchangeOf(ConsolePageOf)(target, key, index);
  const handler = (target as Record<string | symbol, (...args: unknown[]) => unknown>)[key!]!;
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key!) as RouteArgs | undefined;
  const past = Math.max(handler.length, ...Object.values(args ?? {}).map((arg) => arg.index + 1));
  Res()(target, key, past);
};

type RouteArgs = Record<string, { index: number }>;
