import type { EvidenceItem } from '../../domain/cases/case-model';
import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import {
  addedEvidence,
  MAX_PRIOR_AUTH_EVIDENCE,
  withInformation,
} from '../../domain/cases/prior-authorization';

const item = (title: string): EvidenceItem => ({ title, date_created: '2026-11-01T09:00:00', content: {} });
const requestWith = (evidence: EvidenceItem[]) => ({ evidence }) as unknown as PriorAuthorizationRequest;

describe('the evidence an answer to the payer adds', () => {
  it('names the answer’s documents where they joined the evidence', () => {
    const information = { answers: [], documents: [item('Lab results'), item('Weight log')] };
    const joined = withInformation(requestWith([item('Visit note')]), information);
    expect(addedEvidence(joined, information)).toEqual([1, 2]);
  });

  it('names nothing for an answer without documents', () => {
    const information = { answers: [{ question_id: 'a1c', answer: '8.4 %' }] };
    expect(
      addedEvidence(withInformation(requestWith([item('Visit note')]), information), information),
    ).toEqual([]);
  });

  it('names only the documents the evidence cap kept', () => {
    const documents = Array.from({ length: MAX_PRIOR_AUTH_EVIDENCE + 5 }, (_, index) =>
      item(`Page ${index}`),
    );
    const information = { answers: [], documents };
    const joined = withInformation(requestWith([item('Visit note')]), information);
    expect(addedEvidence(joined, information)).toHaveLength(MAX_PRIOR_AUTH_EVIDENCE);
    expect(addedEvidence(joined, information)[0]).toBe(0);
  });
});
