import type { Provider } from '@nestjs/common';

import { ConsoleSessionsRepository } from '../../../infrastructure/console/console-sessions.repository';
import { ConsoleUsersRepository } from '../../../infrastructure/console/console-users.repository';
import { InvitationsRepository } from '../../../infrastructure/console/invitations.repository';
import type { ConsoleAreaDependencies } from '../console-area';
import { AccountPageController } from './account-page.controller';
import { InvitationPageController } from './invitation-page.controller';
import { PeoplePageController } from './people-page.controller';
import { PeopleService } from './people.service';
import { SecondFactor } from './second-factor';
import { SecondFactorController } from './second-factor.controller';
import { SignInThrottle } from './sign-in-throttle';
import { SignInController } from './sign-in.controller';
import { SignInService } from './sign-in.service';

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
    const throttle = new SignInThrottle(deps.db);
    const secondFactor = new SecondFactor(users, sessions, deps.secrets);
    return [
      { provide: ConsoleSessionsRepository, useValue: sessions },
      { provide: SignInService, useValue: new SignInService(users, sessions, secondFactor, throttle) },
      {
        provide: PeopleService,
        useValue: new PeopleService(users, new InvitationsRepository(deps.db), throttle),
      },
    ];
  },
};
