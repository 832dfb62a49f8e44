import { Context } from '@temporalio/activity';

import type { CaseRecord } from '../domain/cases/case-model';
import type { CaseSummary } from '../domain/cases/case-summary';
import type { SecretBox } from '../infrastructure/crypto/aes-gcm';
import type { CaseSummariesRepository } from '../infrastructure/cases/case-summaries.repository';
import type { PublishEventInput } from '../infrastructure/webhooks/webhook-publisher';

export interface CaseSummaryActivityDependencies {
  summaries: CaseSummariesRepository;
  /** Seals the case object the row carries, as every SQL column holding PHI is sealed. */
  box: SecretBox;
  /** The webhook path's `publishEvent` activity, so a move that is announced costs one local activity. */
  publishEvent(input: PublishEventInput): Promise<string[]>;
}

/**
 * Writes of the case read model: the summary's filter columns and the sealed case object. Both are
 * idempotent: the repository keeps the newest row whatever order writes arrive in, and the event id
 * is fixed by the workflow. Runs from before the case object travelled with the summary send none.
 */
export const createCaseSummaryActivities = (deps: CaseSummaryActivityDependencies) => {
  const record = (summary: CaseSummary, caseObject: CaseRecord | undefined) =>
    deps.summaries.record(
      ofCallingWorkflow(summary),
      caseObject && deps.box.sealText(JSON.stringify(caseObject)),
    );
  return {
    async recordCaseSummary(summary: CaseSummary, caseObject?: CaseRecord): Promise<void> {
      await record(summary, caseObject);
    },

    /** A status move the case type announces: its row, then its event. */
    async recordCaseMove(input: {
      summary: CaseSummary;
      event: PublishEventInput;
      caseObject?: CaseRecord;
    }): Promise<string[]> {
      await record(input.summary, input.caseObject);
      return deps.publishEvent(input.event);
    },
  };
};

/** A summary describes the workflow writing it, whatever case id its input names. */
function ofCallingWorkflow(summary: CaseSummary): CaseSummary {
  const workflowId = Context.current().info.workflowExecution?.workflowId;
  return { ...summary, case_id: workflowId ?? summary.case_id };
}
