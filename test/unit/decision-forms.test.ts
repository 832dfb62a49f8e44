import type { CaseRecord } from '../../domain/cases/case-model';
import { decisionFormOf, formValues } from '../../src/console/cases/decision-forms';

const ANY_CASE = {} as CaseRecord;

describe("a prior authorization's information form", () => {
  it("reads an answer to the payer's 50th question, as far as the API takes answers", () => {
    const form = decisionFormOf('prior_authorization', 'information')!;
    const body = { 'answers.49.question_id': 'q50', 'answers.49.answer': 'Yes, since 2024.' };

    const values = formValues(form, body, ANY_CASE);

    expect(values).toMatchObject({
      'answers.49.question_id': 'q50',
      'answers.49.answer': 'Yes, since 2024.',
    });
  });

  it('ignores a row past what the API takes', () => {
    const form = decisionFormOf('prior_authorization', 'information')!;

    expect(formValues(form, { 'answers.50.answer': 'one too many' }, ANY_CASE)).not.toHaveProperty([
      'answers.50.answer',
    ]);
  });
});
