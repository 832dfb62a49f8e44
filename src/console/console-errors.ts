import type { Request, Response } from 'express';

import { ApiError } from '../common/errors';
import { ContextualRequest } from '../common/request-context';
import { SECOND_FACTOR_PATH } from './people/sign-in.controller';
import { html } from './views/html';
import { sendPage } from './layout';
import { isConsoleJsonPath, isConsolePath } from './console-edge';

const HEADINGS: Partial<Record<number, string>> = {
  400: 'Please check what was sent',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'That could not be done now',
  429: 'Too many attempts',
  503: 'Temporarily unavailable',
};

/**
 * Console pages answer failures as pages, in the same words the API uses; the console's JSON calls
 * (under /console/api) keep the contract's error body. A page that needs a session sends the
 * browser to sign in, and back afterwards.
 */
export function sendConsoleError(error: ApiError, req: Request, res: Response): boolean {
  if (!isConsolePath(req.path) || isConsoleJsonPath(req.path)) return false;
  if (
    error.code === 'unauthorized' &&
    req.method === 'GET' &&
    error.message === ApiError.unauthorized().message
  ) {
    const next = encodeURIComponent(req.originalUrl);
    // Someone who gave their password but not yet their code finishes that step first.
    const halfway = (req as ContextualRequest).context.console?.stage === 'password_verified';
    res.redirect(303, `${halfway ? SECOND_FACTOR_PATH : '/console/sign-in'}?next=${next}`);
    return true;
  }
  for (const [header, value] of Object.entries(error.headers)) res.setHeader(header, value);
  const title = HEADINGS[error.httpStatus] ?? 'Something went wrong';
  sendPage(
    req,
    res,
    {
      title,
      body: html`<p class="error-message">${error.message}</p>
        <p><a href="/console">Back to the console</a></p>`,
    },
    error.httpStatus,
  );
  return true;
}
