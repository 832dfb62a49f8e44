import type { Provider } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';

/** The account's API keys and webhook endpoints (the specification's admin panel). */
export const adminConsole = {
  controllers: [],
  providers: (_deps: ConsoleAreaDependencies): Provider[] => [],
};
