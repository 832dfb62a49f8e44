import type { Provider, Type } from '@nestjs/common';

import type { ConsoleAreaDependencies } from '../console-area';
import { CaseListsController } from './case-lists.controller';
import { CasePagesController } from './case-pages.controller';
import { CasesNeedingAttention } from './cases-needing-attention';
import { FeedbackPagesController, FeedbackReportPageController } from './feedback-pages.controller';

/**
 * Case lists, case pages, the review queue, the operators' cases needing attention, and feedback on
 * prior authorizations. The feedback form comes before the case pages, whose `/:id/:decision` would
 * otherwise take its POST.
 */
export const casesConsole = {
  controllers: [
    FeedbackPagesController,
    FeedbackReportPageController,
    CaseListsController,
    CasePagesController,
  ] as Type[],
  providers: (deps: ConsoleAreaDependencies): Provider[] => [
    { provide: CasesNeedingAttention, useValue: new CasesNeedingAttention(deps.temporalClient) },
  ],
};
