import type { CaseObjectType, CaseStatus } from '../../domain/cases/case-model';
import {
  CaseScope,
  CaseSummariesRepository,
  CaseSummary,
  PageRequest,
  QueuedCaseSummary,
  SummaryPage,
} from '../../infrastructure/cases/case-summaries.repository';
import { patientRefOf } from './cases.service';

/** What a console filter form sends: the patient as the caller knows them, never hashed yet. */
export interface CaseSummaryQuery {
  object?: CaseObjectType;
  status?: CaseStatus[];
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
  /** The patient's `internal_id` as submitted with their cases. */
  patientInternalId?: string;
}

/**
 * Lists and the review queue for the console, read from the case summaries (which trail their
 * workflows by a moment). A patient is found by the same keyed hash the API's lists use.
 */
export class CaseSummariesService {
  constructor(
    private readonly summaries: CaseSummariesRepository,
    private readonly patientRefKey: Buffer,
  ) {}

  private patientRef(accountId: string, patientInternalId: string): string {
    return patientRefOf(this.patientRefKey, accountId, patientInternalId);
  }

  /** `scope` is the caller: a principal shows its own account's cases of its own mode. */
  list(scope: CaseScope, query: CaseSummaryQuery, page: PageRequest): Promise<SummaryPage<CaseSummary>> {
    const { patientInternalId, ...filter } = query;
    return this.summaries.list(
      scope,
      {
        ...filter,
        ...(patientInternalId !== undefined && {
          patientRef: this.patientRef(scope.accountId, patientInternalId),
        }),
      },
      page,
    );
  }

  reviewQueue(scope: CaseScope, page: PageRequest): Promise<SummaryPage<QueuedCaseSummary>> {
    return this.summaries.reviewQueue(scope, page);
  }
}
