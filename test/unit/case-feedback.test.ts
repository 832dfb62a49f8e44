import { criterionMarks, feedbackDrugOf, feedbackIssues } from '../../domain/cases/case-feedback';
import type { CriterionAnswer } from '../../domain/payers/payer-connector';
import { drugRefOf } from '../../infrastructure/cases/case-feedback.repository';

const CRITERIA: CriterionAnswer[] = [
  { id: 'adult', question: 'Is the patient 18 years of age or older?', answer: 'yes', source: null },
  { id: 'metformin_trial', question: 'Has the patient taken metformin?', answer: 'unknown', source: null },
];

describe('feedback on a prior authorization, checked against its case', () => {
  it('accepts a correct rating without parts, and expectations of criteria the case holds', () => {
    expect(
      feedbackIssues({ rating: 'correct', criteria: [{ id: 'adult', expected_answer: 'yes' }] }, CRITERIA),
    ).toEqual([]);
  });

  it('names the parts when a rating other than correct names none', () => {
    for (const rating of ['partially_correct', 'incorrect'] as const) {
      expect(feedbackIssues({ rating }, CRITERIA)).toEqual([
        { field: 'parts', issue: expect.stringContaining(`when the rating is ${rating}`) },
      ]);
    }
  });

  it('names each criterion the case does not hold by its place in the list', () => {
    const issues = feedbackIssues(
      {
        rating: 'incorrect',
        parts: ['criteria'],
        criteria: [
          { id: 'adult', expected_answer: 'no' },
          { id: 'bmi_30', expected_answer: 'yes' },
          { id: 'ADULT', expected_answer: 'no' },
        ],
      },
      CRITERIA,
    );
    expect(issues.map((issue) => issue.field)).toEqual(['criteria[1].id', 'criteria[2].id']);
  });

  it('says a case without criteria yet holds none', () => {
    expect(
      feedbackIssues({ rating: 'correct', criteria: [{ id: 'adult', expected_answer: 'no' }] }, []),
    ).toEqual([{ field: 'criteria[0].id', issue: expect.stringContaining('it holds none yet') }]);
  });

  it('marks only whether the reviewer expected another answer, with the question, never the answer itself', () => {
    expect(
      criterionMarks(
        [
          { id: 'adult', expected_answer: 'yes' },
          { id: 'metformin_trial', expected_answer: 'yes' },
        ],
        CRITERIA,
      ),
    ).toEqual([
      { id: 'adult', question: CRITERIA[0]!.question, differs: false },
      { id: 'metformin_trial', question: CRITERIA[1]!.question, differs: true },
    ]);
  });

  it('groups a drug by its NDC when the request gave one, else by its name in lower case', () => {
    expect(feedbackDrugOf({ drug_name: 'Wegovy 2.4 mg pen', ndc: '00169-4524-14' })).toEqual({
      key: 'ndc:00169-4524-14',
      name: 'Wegovy 2.4 mg pen',
      ndc: '00169-4524-14',
    });
    expect(feedbackDrugOf({ drug_name: '  Ozempic 1 mg Pen ' })).toEqual({
      key: 'name:ozempic 1 mg pen',
      name: 'Ozempic 1 mg Pen',
      ndc: null,
    });
  });

  it("groups a drug by a keyed hash that names no drug and differs from one account's to another's", () => {
    const key = Buffer.alloc(32, 7);
    const ref = drugRefOf(key, 'acct_1', 'name:ozempic 1 mg pen');
    expect(ref).toMatch(/^[0-9a-f]{32}$/);
    expect(drugRefOf(key, 'acct_1', 'name:ozempic 1 mg pen')).toBe(ref);
    expect(drugRefOf(key, 'acct_2', 'name:ozempic 1 mg pen')).not.toBe(ref);
    expect(drugRefOf(key, 'acct_1', 'ndc:00169-4524-14')).not.toBe(ref);
    expect(drugRefOf(Buffer.alloc(32, 8), 'acct_1', 'name:ozempic 1 mg pen')).not.toBe(ref);
  });
});
