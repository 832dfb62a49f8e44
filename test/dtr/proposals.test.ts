import { withProposals } from '../../domain/dtr/proposals';
import type { CaseQuestionnaire, QuestionnaireItemState } from '../../domain/dtr/questionnaire';
import { pendingLinkIds } from '../../domain/dtr/enablement';
import { questionnaireResponseOf } from '../../domain/dtr/questionnaire-response';
import { questionnaireItem } from '../support/answered-questionnaire';

function booleanItem(link_id: string, answer: boolean | null = null): QuestionnaireItemState {
  return questionnaireItem({ link_id, answer, origin: answer === null ? null : 'auto' });
}

function questionnaireOf(items: QuestionnaireItemState[]): CaseQuestionnaire {
  return {
    canonical: 'http://payer.example/Questionnaire/q|1',
    title: 'Q',
    status: 'in_progress',
    items,
    pending: pendingLinkIds(items),
    prefill_failure: null,
  };
}

const A1C_MET = {
  id: 'a1c_at_least_7',
  question: 'Is the A1c at least 7 %?',
  answer: 'yes' as const,
  source: 'evidence: Lab report (scan), A1c 8.9 %',
};

describe("the evidence reader's proposals for items the payer's CQL left empty", () => {
  it('proposes the criteria answer, with its citation, for an item of the same id', () => {
    const proposed = withProposals(questionnaireOf([booleanItem('a1c_at_least_7')]), [A1C_MET]);
    expect(proposed.items[0]).toMatchObject({
      answer: true,
      origin: 'proposed',
      source: { kind: 'evidence', reference: 'evidence: Lab report (scan), A1c 8.9 %' },
    });
  });

  it('leaves what the CQL answered as it was', () => {
    const item = booleanItem('a1c_at_least_7', false);
    expect(withProposals(questionnaireOf([item]), [A1C_MET]).items[0]).toEqual(item);
  });

  it('proposes nothing where the criteria could not tell either', () => {
    const unknown = { ...A1C_MET, answer: 'unknown' as const };
    expect(
      withProposals(questionnaireOf([booleanItem('a1c_at_least_7')]), [unknown]).items[0]!.answer,
    ).toBeNull();
  });

  it('still counts a proposed item as pending, so approval waits for a person to confirm it', () => {
    const proposed = withProposals(questionnaireOf([booleanItem('a1c_at_least_7')]), [A1C_MET]);
    expect(pendingLinkIds(proposed.items)).toEqual(['a1c_at_least_7']);
  });

  it('never sends a proposal to the payer', () => {
    const proposed = withProposals(questionnaireOf([booleanItem('a1c_at_least_7')]), [A1C_MET]);
    const response = questionnaireResponseOf(proposed.canonical, proposed.items, {
      subject: { reference: 'Patient/p' },
      authored: '2026-11-29T00:00:00Z',
      status: 'in-progress',
    });
    expect(JSON.stringify(response)).not.toContain('a1c_at_least_7');
  });
});
