import type { ClinicalRecord, DrugEligibility } from '../../domain/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../../domain/clinical/criteria-evaluation';
import type { CriterionAnswer } from '../../domain/payers/payer-connector';
import { answerPriorAuthCriteria } from '../../domain/payers/prior-auth-criteria';
import { AS_OF, NO_PLAN, syntheticRecord, visitNote } from './synthetic-records';
import { shippedPayerCatalog, shippedClinicalCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

/** Shapes of text that once made extraction grow with the square of the note, by length in characters. */
const ADVERSARIAL: ReadonlyArray<readonly [shape: string, text: (length: number) => string]> = [
  ['a repeated cue and drug', (length) => `no ${'metformin '.repeat(length / 10)}`],
  ['stacked negations', (length) => `${'no '.repeat(length / 3)}metformin`],
  ['a comma list of one drug', (length) => `denies ${'metformin, '.repeat(length / 10)}`],
  ['a long digit run', (length) => `A1c ${'7'.repeat(length)} %`],
  ['one sentence per drug', (length) => 'metformin. '.repeat(length / 11)],
  ['a long run of spaces', (length) => `no${' '.repeat(length)}metformin`],
  ['a question of question marks', (length) => `${'? '.repeat(length / 2)}metformin`],
];

function withNote(text: string): ClinicalRecord {
  return syntheticRecord({
    patient: { date_of_birth: '1970-05-01', gender: 'female' },
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    diagnoses: [{ code: 'E11.9' }],
    visitNotes: [visitNote(text)],
  });
}

function ozempic(record: ClinicalRecord): DrugEligibility {
  return evaluateClinicalEligibility(record, NO_PLAN, shippedClinicalCatalog()).results[0] as DrugEligibility;
}

function criterionStatus(result: DrugEligibility, id: string): string | undefined {
  return result.criteria.find((criterion) => criterion.id === id)?.status;
}

function prefill(record: ClinicalRecord): CriterionAnswer[] {
  const catalog = shippedPayerCatalog();
  const criteria = catalog.criteriaFor(catalog.findDrug({ name: 'Ozempic' })!);
  return answerPriorAuthCriteria(
    criteria,
    {
      plan: null,
      drug: { name: 'Ozempic', quantity: 1 },
      patient: record.patient,
      diagnoses: [{ code: 'E11.9' }],
      evidence: [],
      questionnaires: record.questionnaires,
      visitNotes: record.visitNotes,
    },
    AS_OF,
    shippedClinicalCatalog(),
  );
}

function answer(answers: CriterionAnswer[], id: string): CriterionAnswer['answer'] | undefined {
  return answers.find((item) => item.id === id)?.answer;
}

/**
 * Characters that pattern matching moved over: from where each search started to the end of what it
 * found, or to the end of the text when it found nothing. Rescanning a growing prefix or suffix once
 * per drug mention makes this grow with the square of the text; reading it once keeps it linear.
 */
function charactersSearched(run: () => void): number {
  const exec = RegExp.prototype.exec;
  let searched = 0;
  const spy = jest.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, input: string) {
    const from = this.global || this.sticky ? this.lastIndex : 0;
    const found = exec.call(this, input);
    searched += found ? found.index + found[0].length - from : input.length - from;
    return found;
  });
  try {
    run();
  } finally {
    spy.mockRestore();
  }
  return searched;
}

describe('clinical text shaped to be slow', () => {
  it('reads "no metformin metformin …" (40 KB) as metformin never tried, in both engines', () => {
    const record = withNote(`no ${'metformin '.repeat(4_000)}`);
    expect(criterionStatus(ozempic(record), 'metformin_trial')).toBe('not_met');
    expect(answer(prefill(record), 'metformin_trial')).toBe('no');
  });

  it('reads stacked negations before a drug as one denied trial, in both engines', () => {
    const record = withNote(`${'no '.repeat(33_000)}metformin`);
    expect(criterionStatus(ozempic(record), 'metformin_trial')).toBe('not_met');
    expect(answer(prefill(record), 'metformin_trial')).toBe('no');
  });

  it('reads no value from 80,000 digits after a lab name, and still reads the real value after them', () => {
    const digits = '7'.repeat(80_000);
    expect(criterionStatus(ozempic(withNote(`A1c ${digits}`)), 'a1c_at_least_7')).toBe('unknown');
    expect(answer(prefill(withNote(`A1c ${digits}`)), 'a1c_at_least_7')).toBe('unknown');
    const followed = withNote(`A1c ${digits} %. A1c 8.2 %.`);
    expect(criterionStatus(ozempic(followed), 'a1c_at_least_7')).toBe('met');
    expect(answer(prefill(followed), 'a1c_at_least_7')).toBe('yes');
  });

  it('qualifies a patient from a realistic 100 KB note, citing the trial and the value', () => {
    const sentence =
      'Type 2 diabetes. A1c 8.2 % on 2026-01-05. Metformin 1000 mg twice daily for 6 months, inadequate response. ';
    const result = ozempic(withNote(sentence.repeat(Math.ceil(100_000 / sentence.length))));
    expect(result.status).toBe('qualified');
    expect(result.criteria.find((criterion) => criterion.id === 'metformin_trial')?.evidence[0]).toEqual({
      source: 'visit note 2026-02-10',
      excerpt: 'Metformin 1000 mg twice daily for 6 months',
    });
  });

  it('cites at most a bounded excerpt of a 100 KB questionnaire question', () => {
    const question = `Has the patient ever taken metformin ${'really '.repeat(14_000)}?`;
    const record = syntheticRecord({
      drugs: [{ name: 'Ozempic', quantity: 1 }],
      questionnaires: [{ created_at: `${AS_OF}T09:00:00Z`, questions: [{ question, answer: 'No' }] }],
    });
    const [cited] = ozempic(record).criteria.find(
      (criterion) => criterion.id === 'metformin_trial',
    )!.evidence;
    expect(cited!.source.length).toBeLessThan(250);
    expect(cited!.excerpt).toBe('No');
  });

  it.each(ADVERSARIAL)(
    'searches %s of 200 KB no more than about twice as much as of 100 KB',
    (_shape, text) => {
      const at100 = charactersSearched(() =>
        evaluateClinicalEligibility(withNote(text(100_000)), NO_PLAN, shippedClinicalCatalog()),
      );
      const at200 = charactersSearched(() =>
        evaluateClinicalEligibility(withNote(text(200_000)), NO_PLAN, shippedClinicalCatalog()),
      );
      expect(at200 / at100).toBeLessThan(2.5);
    },
  );

  it.each(ADVERSARIAL)(
    'searches %s of 200 KB for the PA prefill no more than about twice as much as of 100 KB',
    (_shape, text) => {
      const at100 = charactersSearched(() => prefill(withNote(text(100_000))));
      const at200 = charactersSearched(() => prefill(withNote(text(200_000))));
      expect(at200 / at100).toBeLessThan(2.5);
    },
  );
});
