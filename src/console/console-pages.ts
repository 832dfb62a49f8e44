import { applyDecorators, Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

import type { Role } from '../../domain/accounts/roles';
import { RequiresRole } from '../common/route-access';

/**
 * A controller of console pages: served under `/console/<path>`, left out of the API document (the
 * console is not part of the API), and, given `role`, open only to people who hold it.
 */
export const ConsolePages = (path = '', role?: Role) =>
  applyDecorators(
    ApiExcludeController(),
    Controller(path ? `console/${path}` : 'console'),
    ...(role ? [RequiresRole(role)] : []),
  );
