import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import { CaseBindingEpoch } from '../../infrastructure/cases/case-binding-epoch';
import { CaseFeedbackRepository } from '../../infrastructure/cases/case-feedback.repository';
import { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import { CaseSummariesRepository } from '../../infrastructure/cases/case-summaries.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { IdempotencyRepository } from '../../infrastructure/idempotency/idempotency.repository';
import type { Database } from '../../infrastructure/storage/database';
import { caseController } from './case-controller';
import type { CaseAdmission, CaseAnnotations } from './case-extensions';
import { CaseWorkflows } from './case-workflows';
import { CaseSummariesService } from './case-summaries.service';
import { CasesService } from './cases.service';
import {
  PriorAuthorizationFeedbackController,
  PriorAuthorizationFeedbackReportController,
} from './feedback/case-feedback.controller';
import { GiveFeedbackDto } from './feedback/case-feedback.dto';
import { CaseFeedbackService } from './feedback/case-feedback.service';
import { CASE_TYPES } from './types';

// What the console's pages, the patients feature and the composition root use of cases.
export { plain } from './case-request-mapping';
export { FailCaseDto } from './case-requests.dto';
export type { CaseSummaryQuery } from './case-summaries.service';
export { patientRefOf } from './cases.service';
export { CASE_DOCUMENT_ROUTES, CASE_TYPES } from './types';
export type { CaseType } from './case-type';
export {
  CHOICE_FIELD,
  type CaseConsoleSection,
  type CaseTypeView,
  type DecisionField,
  type DecisionForm,
  type DecisionRows,
} from './case-console';

export { CaseSummariesService, CasesService };
// Feedback on prior authorizations: the console gives it through the same service and DTO as the API.
export { CaseFeedbackService, GiveFeedbackDto };
export { feedbackAnnotations } from './feedback/feedback-annotations';
export { FEEDBACK_METRICS } from './feedback/feedback-metrics';
export type { CaseAdmission, CaseAnnotations } from './case-extensions';

/** Every case type's routes (`CASE_TYPES`), served from its declaration, and the services behind them. */
@Module({})
export class CasesModule {
  static forRoot(deps: {
    config: AppConfig;
    db: Database;
    temporalClient: Client;
    secrets: SecretBox;
    idempotencyKeys: IdempotencyRepository;
    /** Other features' say in the cases: who may create one, and what a read adds. */
    extensions: { admission: CaseAdmission; annotations: CaseAnnotations };
  }): DynamicModule {
    const documents = new CaseDocumentsRepository(deps.db, deps.secrets);
    const summaries = new CaseSummariesRepository(deps.db);
    const cases = new CasesService(
      deps.config,
      new CaseWorkflows(deps.temporalClient, deps.config.temporal),
      documents,
      deps.idempotencyKeys,
      new CaseBindingEpoch(deps.db),
      new ConnectorSettingsRepository(deps.db, deps.secrets),
      summaries,
      deps.extensions,
    );
    return {
      module: CasesModule,
      controllers: [
        ...CASE_TYPES.map(caseController),
        PriorAuthorizationFeedbackController,
        PriorAuthorizationFeedbackReportController,
      ],
      providers: [
        {
          provide: CaseSummariesService,
          useValue: new CaseSummariesService(summaries, deps.config.cases.patientRefKey!),
        },
        { provide: CaseDocumentsRepository, useValue: documents },
        { provide: CasesService, useValue: cases },
        {
          provide: CaseFeedbackService,
          useValue: new CaseFeedbackService(
            cases,
            new CaseFeedbackRepository(deps.db, deps.secrets, deps.config.cases.patientRefKey!),
          ),
        },
      ],
      exports: [CasesService, CaseSummariesService, CaseFeedbackService],
    };
  }
}
