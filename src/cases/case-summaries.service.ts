import type { CaseObjectType, CaseStatus } from '../../domain/cases/case-model';
import {
  CaseScope,
  CaseSummariesRepository,
  CaseSummary,
  QueuedCaseSummary,
  SummaryPage,
} from '../../infrastructure/cases/case-summaries.repository';
import { refusingBadCursors } from '../common/dto/page-query';
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
 * workflows by a moment). A patient is found by the same keyed hash the API's lists use, and a
 * cursor this service did not issue is a 400 on `cursor`.
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
  list(
    scope: CaseScope,
    query: CaseSummaryQuery,
    page: { limit: number; cursor?: string },
  ): Promise<SummaryPage<CaseSummary>> {
    const { patientInternalId, ...filter } = query;
    return refusingBadCursors(() =>
      this.summaries.list(
        scope,
        {
          ...filter,
          ...(patientInternalId !== undefined && {
            patientRef: this.patientRef(scope.accountId, patientInternalId),
          }),
        },
        page,
      ),
    );
  }

  reviewQueue(
    scope: CaseScope,
    page: { limit: number; cursor?: string },
  ): Promise<SummaryPage<QueuedCaseSummary>> {
    return refusingBadCursors(() => this.summaries.reviewQueue(scope, page));
  }
}
