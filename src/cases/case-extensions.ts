import type { Principal } from '../../infrastructure/accounts/accounts.repository';
import type { CaseRecord } from '../../domain/cases/case-model';
import type { CaseType } from './case-type';

/**
 * What another feature decides before a case is created: it throws the ApiError that refuses the
 * request (a prescriber who has not authorized the account: 409 `provider_not_authorized`). It runs
 * after the request is checked and an Idempotency-Key claimed, and before anything else is stored; a
 * refusal gives the key back, so it leaves nothing. A retry of a case that was created is not asked
 * again: it answers with the case.
 */
export interface CaseAdmission {
  admit(principal: Principal, type: CaseType, request: object): Promise<void>;
}

/**
 * What another feature adds to the cases a caller reads (a prior authorization's `feedback[]`): kept
 * outside the workflow, so it can be added to a decided case without changing it.
 */
export interface CaseAnnotations {
  /**
   * Reads what the feature adds to these cases of the caller's, for all of them at once (a page costs
   * what one case does), and answers the function that adds it to each.
   */
  read(principal: Principal, type: CaseType, caseIds: string[]): Promise<Annotate>;
  /** Adds it to a case just created, which nothing can have been added to yet: reads nothing. */
  ofNew(type: CaseType, record: CaseRecord): CaseRecord;
}

export type Annotate = (record: CaseRecord) => CaseRecord;

export const ADMIT_EVERY_CASE: CaseAdmission = { admit: async () => undefined };
export const NO_ANNOTATIONS: CaseAnnotations = {
  read: async () => (record) => record,
  ofNew: (_type, record) => record,
};
