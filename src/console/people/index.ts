import type { Provider } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';
import { AccountPageController } from './account-page.controller';
import { ConsoleSessionsRepository } from './console-sessions.repository';
import { ConsoleUsersRepository } from './console-users.repository';
import { InvitationPageController } from './invitation-page.controller';
import { InvitationsRepository } from './invitations.repository';
import { PeoplePageController } from './people-page.controller';
import { SecondFactor } from './second-factor';
import { SecondFactorController } from './second-factor.controller';
import { SignInThrottle } from './sign-in-throttle';
import { SignInController } from './sign-in.controller';

/** People, sign-in, second factors, invitations and the account page. */
export const peopleConsole = {
  controllers: [
    SignInController,
    SecondFactorController,
    AccountPageController,
    PeoplePageController,
    InvitationPageController,
  ],
  providers: (deps: ConsoleAreaDependencies): Provider[] => {
    const users = new ConsoleUsersRepository(deps.db);
    const sessions = new ConsoleSessionsRepository(deps.db);
    return [
      { provide: ConsoleUsersRepository, useValue: users },
      { provide: ConsoleSessionsRepository, useValue: sessions },
      { provide: SecondFactor, useValue: new SecondFactor(users, sessions, deps.secrets) },
      { provide: SignInThrottle, useValue: new SignInThrottle(deps.db) },
      { provide: InvitationsRepository, useValue: new InvitationsRepository(deps.db) },
    ];
  },
};
