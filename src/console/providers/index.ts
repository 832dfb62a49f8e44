import type { Provider, Type } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';
import { ProviderAuthorizationsPageController } from './authorizations-page.controller';
import { RegistryLookupPageController } from './lookup-page.controller';
import { MailOutboxPageController } from './outbox-page.controller';

// Typed as Nest's Type, so the console's list of every area's controllers stays one type.
const CONTROLLERS: Type[] = [
  ProviderAuthorizationsPageController,
  MailOutboxPageController,
  RegistryLookupPageController,
];

/** Prescribers: their authorizations, the mail sent to them in test mode, and the NPI registry. */
export const providersConsole = {
  controllers: CONTROLLERS,
  providers: (_deps: ConsoleAreaDependencies): Provider[] => [],
};
