import type { Provider } from '@nestjs/common';

import { adminConsole } from './admin';
import { casesConsole } from './cases';
import type { ConsoleAreaDependencies } from './console-area';
import { ConsoleAudit } from './console-audit';
import { modeConsole } from './console-mode.controller';
import { peopleConsole } from './people';
import { providersConsole } from './providers';

const AREAS = [peopleConsole, adminConsole, casesConsole, providersConsole, modeConsole];

/** The web console served under /console: each area's controllers and providers. */
export const CONSOLE_CONTROLLERS = AREAS.flatMap((area) => area.controllers);

export function consoleProviders(deps: ConsoleAreaDependencies): Provider[] {
  return [ConsoleAudit, ...AREAS.flatMap((area) => area.providers(deps))];
}
