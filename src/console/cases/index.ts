import type { Provider } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';

/** Case lists, case pages and the review queue. */
export const casesConsole = {
  controllers: [],
  providers: (_deps: ConsoleAreaDependencies): Provider[] => [],
};
