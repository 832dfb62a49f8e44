import { createParamDecorator, type ExecutionContext, Res } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'express';

import type { ContextualRequest } from '../common/request-context';
import { csrfField, type PageContent, sendPage } from './layout';
import type { Html } from './views/html';

/**
 * A console request and the response its handler answers on: a whole page, or, after a form, a
 * redirect to the page that shows what the form did.
 */
export class ConsolePage {
  constructor(
    readonly req: ContextualRequest,
    readonly res: Response,
  ) {}

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

const consolePageOf = createParamDecorator(
  (_data: unknown, context: ExecutionContext) =>
    new ConsolePage(context.switchToHttp().getRequest(), context.switchToHttp().getResponse()),
);

/**
 * The handler's `ConsolePage`. The handler answers on the page's response itself, which Nest learns
 * only from an `@Res()` parameter: one is declared past the handler's own parameters, where nothing
 * reads it, so Nest sends nothing after the handler. Parameters are decorated last first, so those
 * after the page are known here; `length` counts those without a default value.
 */
export const Page = (): ParameterDecorator => (target, key, index) => {
  consolePageOf()(target, key, index);
  const handler = (target as Record<string | symbol, (...args: unknown[]) => unknown>)[key!]!;
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, target.constructor, key!) as RouteArgs | undefined;
  const past = Math.max(handler.length, ...Object.values(args ?? {}).map((arg) => arg.index + 1));
  Res()(target, key, past);
};

type RouteArgs = Record<string, { index: number }>;
