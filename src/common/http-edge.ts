import express, { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

import { newId } from '../../domain/ids';
import { ApiError } from './errors';
import { assertJsonDepth, JsonTooDeepError } from './json-depth';
import { ContextualRequest } from './request-context';

/** The date of the contract version this build implements; CHANGELOG.md records each one. */
export const API_VERSION = '2026-11-29';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]*)/i;

/** The body limit of every route that carries no base64 document. */
export const SMALL_BODY_BYTES = 1024 * 1024;

/** The codec's routes, whose Temporal payloads may embed a case's documents. */
const PAYLOAD_ROUTES = ['POST /codec/decode', 'POST /codec/encode'];

/**
 * Gives every request an id, stamps the version headers and writes one PHI-free access log line;
 * `observeRequest` (the metrics) sees the same answered request, so logs and metrics never disagree.
 */
export function requestContextMiddleware(logger: Logger, observeRequest?: RequestObserver) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requestId = newId('request');
    (req as ContextualRequest).context = { requestId };
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('API-Version', API_VERSION);
    const startedAt = process.hrtime.bigint();
    res.on('finish', () => {
      const context = (req as ContextualRequest).context;
      // The route pattern, not the URL: query strings may carry patient references, and ids in
      // paths would give the metrics a series per case.
      const route = typeof req.route?.path === 'string' ? req.route.path : 'unmatched';
      const durationMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
      observeRequest?.({
        method: req.method,
        route,
        status: res.statusCode,
        durationSeconds: durationMs / 1000,
      });
      logger.info(
        {
          request_id: requestId,
          method: req.method,
          route,
          status: res.statusCode,
          duration_ms: durationMs,
          account_id: context.principal?.accountId,
          credential_type: context.principal?.credential.type,
          credential_id: context.principal?.credential.id,
        },
        'request completed',
      );
    });
    next();
  };
}

/** One answered request, as the access log sees it: the route's template, never the raw path. */
export interface ObservedRequest {
  method: string;
  route: string;
  status: number;
  durationSeconds: number;
}

export type RequestObserver = (request: ObservedRequest) => void;

/**
 * JSON only: a body sent as anything else is refused before any parser reads it, unless
 * `readElsewhere` says a parser before this one took it (the formulary upload's CSV).
 */
export function requireJsonBody(readElsewhere: (req: Request) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void =>
    requireJson(req, res, next, readElsewhere);
}

function requireJson(
  req: Request,
  _res: Response,
  next: NextFunction,
  readElsewhere: (req: Request) => boolean,
): void {
  // Console forms are parsed by the console's own edge (console-edge.ts).
  if ((req as ContextualRequest).context.throughConsoleEdge) return next();
  if (readElsewhere(req)) return next();
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (BODY_METHODS.has(req.method) && hasBody && !req.is('application/json')) {
    next(
      new ApiError(
        'unsupported_media_type',
        'Request bodies must be JSON: send "Content-Type: application/json".',
      ),
    );
    return;
  }
  // The parser would accept other charsets and then fail to decode some of them (UTF-16, UTF-32).
  const charset = CHARSET_PARAMETER.exec(req.headers['content-type'] ?? '')?.[1];
  if (hasBody && charset !== undefined && !/^utf-?8$/i.test(charset)) {
    next(new ApiError('unsupported_media_type', 'Request bodies must be UTF-8 JSON.'));
    return;
  }
  next();
}

/**
 * JSON parsing with two size limits, chosen by route, and a depth check of the raw bytes before
 * JSON.parse can recurse into them. Only the codec's routes and `documentRoutes` (`POST /path`, the
 * creations of the case types whose requests carry base64 documents, named by the composition root) accept up to
 * `maxBodyBytes`.
 */
export function jsonBodyParser(maxBodyBytes: number, documentRoutes: readonly string[]) {
  const largeBodyRoutes = new Set([...documentRoutes, ...PAYLOAD_ROUTES]);
  const verify = (_req: Request, _res: Response, body: Buffer) => assertJsonDepth(body);
  const options = { type: 'application/json', strict: true, verify };
  const documents = express.json({ ...options, limit: maxBodyBytes });
  const small = express.json({ ...options, limit: Math.min(maxBodyBytes, SMALL_BODY_BYTES) });
  return (req: Request, res: Response, next: NextFunction): void => {
    const route = `${req.method} ${req.path.replace(/\/+$/, '').toLowerCase()}`;
    (largeBodyRoutes.has(route) ? documents : small)(req, res, next);
  };
}

/** body-parser's errors become the contract's codes before Nest's generic handling can blur them. */
export function translateBodyParserErrors(
  error: unknown,
  _req: Request,
  _res: Response,
  next: NextFunction,
): void {
  const type = (error as { type?: string })?.type;
  if (error instanceof JsonTooDeepError) {
    next(
      new ApiError('validation_error', 'The request is invalid; see details.', [
        { field: error.field, issue: `nests deeper than ${error.maxDepth} levels` },
      ]),
    );
  } else if (type === 'entity.parse.failed') {
    next(new ApiError('invalid_json', 'The request body is not valid JSON.'));
  } else if (type === 'parameters.too.many') {
    next(new ApiError('payload_too_large', 'The form has more fields than the service accepts.'));
  } else if (type === 'entity.too.large') {
    next(new ApiError('payload_too_large', 'The request body is larger than the service accepts.'));
  } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    next(new ApiError('unsupported_media_type', 'Request bodies must be UTF-8 JSON.'));
  } else {
    next(error);
  }
}
