import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';

import { newId } from './ids';
import { ContextualRequest } from './request-context';
import { ApiError } from './errors';

/** The date of the contract version this build implements; CHANGELOG.md records each one. */
export const API_VERSION = '2026-11-21';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Gives every request an id, stamps the version headers and writes one PHI-free access log line. */
export function requestContextMiddleware(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requestId = newId('request');
    (req as ContextualRequest).context = { requestId };
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('API-Version', API_VERSION);
    const startedAt = process.hrtime.bigint();
    res.on('finish', () => {
      const context = (req as ContextualRequest).context;
      logger.info(
        {
          request_id: requestId,
          method: req.method,
          // The route pattern, not the URL: query strings may carry patient references.
          route: req.route?.path ?? 'unmatched',
          status: res.statusCode,
          duration_ms: Number(process.hrtime.bigint() - startedAt) / 1e6,
          account_id: context.principal?.accountId,
          api_key_id: context.principal?.apiKeyId,
        },
        'request completed',
      );
    });
    next();
  };
}

/** JSON only: a body sent as anything else is refused before any parser reads it. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
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
  next();
}
