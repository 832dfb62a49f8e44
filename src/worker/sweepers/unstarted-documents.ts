import { Client, WorkflowNotFoundError } from '@temporalio/client';

import { CaseDocumentsRepository } from '../../../infrastructure/cases/case-documents.repository';
import { SWEEP_BATCH, Sweeper, SweepRoutine } from './sweep-while-running';

/**
 * How long stored documents may await their case's start. A create stores them, then starts the
 * workflow within one request (seconds); past this its process died in between.
 */
export const UNSTARTED_DOCUMENTS_GRACE_MS = 15 * 60_000;

const UNSTARTED_DOCUMENTS_ROUTINE: SweepRoutine = {
  intervalMs: 60_000,
  acted: 'documents of cases never started removed',
  failed: 'unstarted documents sweep failed',
};

/**
 * Removes documents stored for a case whose workflow was never started (the creating process died
 * between storing them and starting it), so encrypted PHI never outlives a case that does not
 * exist: at most UNSTARTED_DOCUMENTS_GRACE_MS plus one sweep interval after they were stored. A
 * case that Temporal knows keeps its documents (its process died after the start).
 */
export class UnstartedDocumentsSweeper implements Sweeper {
  readonly routine = UNSTARTED_DOCUMENTS_ROUTINE;

  constructor(
    private readonly documents: CaseDocumentsRepository,
    private readonly temporalClient: Client,
    private readonly graceMs = UNSTARTED_DOCUMENTS_GRACE_MS,
  ) {}

  /** One pass; returns how many documents it removed. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (const { caseId } of await this.documents.awaitingStart(this.graceMs, SWEEP_BATCH)) {
      try {
        await this.temporalClient.workflow.getHandle(caseId).describe();
        await this.documents.markStarted(caseId);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        removed += await this.documents.removeUnstarted(caseId, this.graceMs);
      }
    }
    return removed;
  }
}
