import express, { NextFunction, Request, Response } from 'express';

import { FORMULARY_LIMITS } from '../../infrastructure/formularies/formulary-file';
import { ApiError } from '../common/errors';

const FORMULARY_PATH = /^\/formularies\/[^/]+\/?$/i;

/**
 * A CSV body sent to /formularies/{payer_id}, the one path that takes a body other than JSON
 * (requireJsonBody lets it pass). Any method counts, so a CSV sent with the wrong one hears 405
 * from the router rather than 415.
 */
export function isFormularyCsv(req: Request): boolean {
  return FORMULARY_PATH.test(req.path) && Boolean(req.is('text/csv'));
}

/** Reads a formulary file as text, up to the formulary size limit; an upload in any other type is 415. */
export function formularyUploadBody() {
  const parseCsv = express.text({ type: 'text/csv', limit: FORMULARY_LIMITS.maxBytes });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (isFormularyCsv(req)) return parseCsv(req, res, next);
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (req.method === 'PUT' && hasBody && FORMULARY_PATH.test(req.path)) {
      return next(
        new ApiError('unsupported_media_type', 'Formulary files are CSV: send "Content-Type: text/csv".'),
      );
    }
    next();
  };
}
