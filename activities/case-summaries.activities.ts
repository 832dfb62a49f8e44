import { Context } from '@temporalio/activity';

import { CaseSummariesRepository, CaseSummary } from '../infrastructure/cases/case-summaries.repository';
import type { PublishEventInput } from '../infrastructure/webhooks/webhook-publisher';

export interface CaseSummaryActivityDependencies {
  summaries: CaseSummariesRepository;
  /** The webhook path's `publishEvent` activity, so a move that is announced costs one local activity. */
  publishEvent(input: PublishEventInput): Promise<string[]>;
}

/**
 * Writes of the case summaries read model. Both are idempotent: the repository keeps the newest
 * summary whatever order writes arrive in, and the event id is fixed by the workflow.
 */
export const createCaseSummaryActivities = (deps: CaseSummaryActivityDependencies) => ({
  async recordCaseSummary(summary: CaseSummary): Promise<void> {
    await deps.summaries.record(ofCallingWorkflow(summary));
  },

  /** A status move the case type announces: its summary, then its event. */
  async recordCaseMove(input: { summary: CaseSummary; event: PublishEventInput }): Promise<string[]> {
    await deps.summaries.record(ofCallingWorkflow(input.summary));
    return deps.publishEvent(input.event);
  },
});

/** A summary describes the workflow writing it, whatever case id its input names. */
function ofCallingWorkflow(summary: CaseSummary): CaseSummary {
  const workflowId = Context.current().info.workflowExecution?.workflowId;
  return { ...summary, case_id: workflowId ?? summary.case_id };
}
