import type { Request } from 'express';

import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import { ApiError } from '../common/errors';
import { ContextualRequest } from '../common/request-context';

/** The signed-in person as the services see a caller; the auth guard has already required one. */
export function principalOf(req: Request): Principal {
  const principal = (req as ContextualRequest).context.principal;
  if (!principal) throw ApiError.unauthorized();
  return principal;
}
