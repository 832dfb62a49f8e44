import type { Provider, Type } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';
import { CaseListsController } from './case-lists.controller';
import { CasePagesController } from './case-pages.controller';
import { CasesNeedingAttention } from './cases-needing-attention';

/** Case lists, case pages, the review queue and the operators' cases needing attention. */
export const casesConsole = {
  controllers: [CaseListsController, CasePagesController] as Type[],
  providers: (deps: ConsoleAreaDependencies): Provider[] => [
    { provide: CasesNeedingAttention, useValue: new CasesNeedingAttention(deps.temporalClient) },
  ],
};
