import type { Provider, Type } from '@nestjs/common';

import { MailOutboxRepository } from '../../../infrastructure/mail/mail-outbox.repository';
import type { ConsoleAreaDependencies } from '../console-area';
import { ProviderAuthorizationsPageController } from './authorizations-page.controller';
import { RegistryLookupPageController } from './lookup-page.controller';
import { MailOutbox } from './mail-outbox';
import { MailOutboxPageController } from './outbox-page.controller';
import { SigningPageController } from './signing-page.controller';

// Typed as Nest's Type, so the console's list of every area's controllers stays one type.
const CONTROLLERS: Type[] = [
  ProviderAuthorizationsPageController,
  MailOutboxPageController,
  RegistryLookupPageController,
  SigningPageController,
];

/**
 * Prescribers: their authorizations, the mail sent to them in test mode, and the NPI registry; and the
 * pages a prescriber reaches from their mail to sign or revoke an authorization.
 */
export const providersConsole = {
  controllers: CONTROLLERS,
  providers: (deps: ConsoleAreaDependencies): Provider[] => [
    {
      provide: MailOutbox,
      // A local install has no mail server: it keeps every mode's mail in the outbox (AccountMailer).
      useValue: new MailOutbox(new MailOutboxRepository(deps.db, deps.secrets), deps.config.mode === 'local'),
    },
  ],
};
