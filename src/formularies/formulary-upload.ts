import express, { NextFunction, Request, Response } from 'express';

import { FORMULARY_LIMITS } from '../../infrastructure/formularies/formulary-file';
import { ApiError } from '../common/errors';

const UPLOAD_PATH = /^\/formularies\/[^/]+\/?$/i;

/** PUT /formularies/{payer_id}: the one route whose body is not JSON (requireJsonBody lets it pass). */
export function isFormularyUpload(req: Request): boolean {
  return req.method === 'PUT' && UPLOAD_PATH.test(req.path);
}

/** Reads a formulary upload's CSV body as text, up to the formulary size limit; other routes pass by. */
export function formularyUploadBody() {
  const parseCsv = express.text({ type: 'text/csv', limit: FORMULARY_LIMITS.maxBytes });
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!isFormularyUpload(req)) return next();
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !req.is('text/csv')) {
      next(new ApiError('unsupported_media_type', 'Formulary files are CSV: send "Content-Type: text/csv".'));
      return;
    }
    parseCsv(req, res, next);
  };
}
