import type { Provider, Type } from '@nestjs/common';

import { MailOutboxRepository } from '../../../infrastructure/mail/mail-outbox.repository';
import type { ConsoleAreaDependencies } from '../console-area';
import { ProviderAuthorizationsPageController } from './authorizations-page.controller';
import { RegistryLookupPageController } from './lookup-page.controller';
import { MailOutboxPageController, OUTBOX_KEEPS_LIVE_MAIL } from './outbox-page.controller';

// Typed as Nest's Type, so the console's list of every area's controllers stays one type.
const CONTROLLERS: Type[] = [
  ProviderAuthorizationsPageController,
  MailOutboxPageController,
  RegistryLookupPageController,
];

/** Prescribers: their authorizations, the mail sent to them in test mode, and the NPI registry. */
export const providersConsole = {
  controllers: CONTROLLERS,
  providers: (deps: ConsoleAreaDependencies): Provider[] => [
    { provide: MailOutboxRepository, useValue: new MailOutboxRepository(deps.db, deps.secrets) },
    { provide: OUTBOX_KEEPS_LIVE_MAIL, useValue: deps.config.mode === 'local' },
  ],
};
