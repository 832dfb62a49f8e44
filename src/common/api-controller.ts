import { applyDecorators, Controller } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import type { Role } from '../../domain/accounts/roles';
import { RequiresRole } from './route-access';

export interface ApiControllerOptions {
  /** The key role its routes need; without one, any valid key. */
  role?: Role;
  /** The group of its routes in the API document; its path in words (`api-keys`: "api keys") by default. */
  tag?: string;
}

/**
 * A controller of the API: its routes under `/<path>`, grouped in the API document, called with an
 * API key as a bearer token, and open only to keys that hold its role.
 */
export const ApiController = (
  path: string,
  { role, tag = path.split('-').join(' ') }: ApiControllerOptions = {},
) => applyDecorators(ApiTags(tag), ApiBearerAuth(), Controller(path), ...(role ? [RequiresRole(role)] : []));
