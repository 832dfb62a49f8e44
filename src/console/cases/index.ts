import type { Provider, Type } from '@nestjs/common';

import { CaseSummariesRepository } from '../../../infrastructure/cases/case-summaries.repository';
import { CaseSummariesService } from '../../cases/case-summaries.service';
import type { ConsoleAreaDependencies } from '../console-area';
import { CaseListsController } from './case-lists.controller';
import { CasePagesController } from './case-pages.controller';

/** Case lists, case pages and the review queue. */
export const casesConsole = {
  controllers: [CaseListsController, CasePagesController] as Type[],
  providers: (deps: ConsoleAreaDependencies): Provider[] => [
    {
      provide: CaseSummariesService,
      useValue: new CaseSummariesService(
        new CaseSummariesRepository(deps.db),
        deps.config.cases.patientRefKey!,
      ),
    },
  ],
};
