import { MockActivityEnvironment } from '@temporalio/testing';

import { createClinicalActivities } from '../../activities/clinical.activities';
import type { CaseEvidenceItem } from '../../domain/cases/case-model';
import type { ClinicalEligibilityRequest } from '../../domain/cases/clinical-eligibility-request';
import type { ClinicalEligibilityOutcome } from '../../domain/clinical/clinical-model';
import type { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import { inlineEvaluator } from '../../infrastructure/clinical/evaluation-pool';
import type { DocumentReadingsRepository } from '../../infrastructure/documents/document-readings.repository';
import { CatalogPlanResolver } from '../../infrastructure/connectors/plan-resolution';
import { AS_OF } from './synthetic-records';

const KIB = 1024;

/** Stored documents by id, remembering which ones the activity read. */
function documentStore(contents: Record<string, string>) {
  const readIds: string[] = [];
  const documents = {
    async read(documentIds: string[]): Promise<Buffer[]> {
      readIds.push(...documentIds);
      return documentIds.map((id) => Buffer.from(contents[id] ?? ''));
    },
  } as unknown as CaseDocumentsRepository;
  // Cases that did not read their documents (started before documents were read) have no readings.
  const readings = {
    async documents(documentIds: string[]) {
      return documentIds.map((documentId) => ({ documentId, accountId: 'acct_1', sha256: '0'.repeat(64) }));
    },
    async find() {
      return undefined;
    },
  } as unknown as DocumentReadingsRepository;
  return { documents, readings, readIds };
}

function textAsset(id: string, sizeBytes: number): CaseEvidenceItem {
  return {
    title: `Chart export ${id}`,
    date_created: `${AS_OF}T09:00:00Z`,
    asset: {
      document_id: id,
      name: `${id}.txt`,
      type: 'text/plain',
      sha256: '0'.repeat(64),
      size_bytes: sizeBytes,
      fileType: 'text/plain',
    },
  };
}

describe('the clinical eligibility activity', () => {
  it('does not read an asset once the case has used its 1 MiB, and lists it whole as unread', async () => {
    const ids = ['doc1', 'doc2', 'doc3', 'doc4', 'doc5'];
    const { documents, readings, readIds } = documentStore(
      Object.fromEntries(ids.map((id) => [id, 'A1c 8.2 %. '.padEnd(256 * KIB, ' ')])),
    );
    const request: ClinicalEligibilityRequest = {
      patient: {
        internal_id: 'patient-1',
        first_name: 'Corisande',
        last_name: 'Testperson',
        date_of_birth: '1970-05-01',
        gender: 'female',
      },
      drugs: [{ name: 'Ozempic', quantity: 1 }],
      diagnoses: [{ code: 'E11.9' }],
      questionnaires: [],
      visit_notes: [],
      evidence: ids.map((id) => textAsset(id, 256 * KIB)),
    };
    const { evaluateClinicalEligibility } = createClinicalActivities({
      documents,
      readings,
      evaluator: inlineEvaluator,
      plans: new CatalogPlanResolver(),
    });
    const outcome: ClinicalEligibilityOutcome = await new MockActivityEnvironment().run(
      evaluateClinicalEligibility,
      { request, asOf: AS_OF },
    );
    expect(readIds).toEqual(['doc1', 'doc2', 'doc3', 'doc4']);
    expect(outcome.unread).toEqual([{ title: 'Chart export doc5', bytes_unread: 256 * KIB }]);
  });
});
