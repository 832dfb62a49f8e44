import { ActivityFailure, patched, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

import type { CaseInsurance, createCaseActivities } from '../activities/cases.activities';
import type { createDocumentActivities } from '../activities/documents.activities';
import type { CaseRecord, DocumentRef } from '../domain/cases/case-model';
import { INSURANCE_CARD_VIEW, READ_CASE_DOCUMENTS } from './patches';

/**
 * Reading is bounded inside the activity (a time limit per page, a page limit per document), so its
 * timeouts only catch a worker that died mid-reading: the heartbeat between documents shows it alive.
 * An unreadable document is a reading, not a failure, so a retry only repeats what a lost worker did.
 */
const reader = proxyActivities<ReturnType<typeof createDocumentActivities>>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', maximumAttempts: 3 },
});

/**
 * Reads the case's documents once, before anything uses them, and lists each with its reading on the
 * case (`documents`), shown from the next change on. Cases started before documents were read replay
 * without it.
 */
export async function readCaseDocuments(
  record: CaseRecord,
  documents: readonly DocumentRef[],
): Promise<void> {
  if (documents.length === 0 || !patched(READ_CASE_DOCUMENTS)) return;
  const readings = await reader.readCaseDocuments(documents.map((document) => document.document_id));
  record.documents = documents.flatMap((document) => {
    const reading = readings.find((candidate) => candidate.document_id === document.document_id);
    const { document_id, name, type, sha256, size_bytes } = document;
    return reading ? [{ document_id, name, type, sha256, size_bytes, reading }] : [];
  });
}

const cards = proxyLocalActivities<ReturnType<typeof createCaseActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumAttempts: 5 },
});

/**
 * Shows what the case read from its insurance cards beside its discrete data (`insurance_card`), once
 * its documents are read; cases that read none, or started before, show nothing new.
 */
export async function showInsuranceCard(record: CaseRecord, insurance: CaseInsurance): Promise<void> {
  if (!record.documents?.length || !patched(INSURANCE_CARD_VIEW)) return;
  try {
    record.insurance_card = await cards.insuranceCardOf(insurance);
  } catch (error) {
    // Only a view: the payer call reads the cards itself, so an outage here must not end the case.
    if (!(error instanceof ActivityFailure)) throw error;
    record.insurance_card = null;
  }
}
