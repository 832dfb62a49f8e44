import type { Provider } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';
import { AccountPageController } from './account-page.controller';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleUsersRepository } from './console-users.repository';
import { SignInController } from './sign-in.controller';

/** People, sign-in, second factors, invitations and the account page. */
export const peopleConsole = {
  controllers: [SignInController, AccountPageController],
  providers: (deps: ConsoleAreaDependencies): Provider[] => [
    { provide: ConsoleUsersRepository, useValue: new ConsoleUsersRepository(deps.db) },
    { provide: ConsoleSessionsRepository, useValue: new ConsoleSessionsRepository(deps.db) },
  ],
};
