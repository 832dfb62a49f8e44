import { DynamicModule, Module } from '@nestjs/common';

import { CONSOLE_CONTROLLERS, consoleProviders } from './index';
import type { ConsoleAreaDependencies } from './console-area';

// What the composition root's edge runs for console requests.
export { consoleEdge, CONSOLE_PATH } from './console-edge';
export { sendConsoleError } from './console-errors';

/**
 * The web console under /console. It shows what the API's features hold, so it imports the modules
 * the composition root built for them (`features`), which export the services its pages call.
 */
@Module({})
export class ConsoleModule {
  static forRoot(deps: ConsoleAreaDependencies, features: DynamicModule[]): DynamicModule {
    return {
      module: ConsoleModule,
      imports: features,
      controllers: CONSOLE_CONTROLLERS,
      providers: consoleProviders(deps),
    };
  }
}
