import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import type { ClinicalFacts } from '../../domain/clinical/evidence-extractor';
import type { MeasurementFact } from '../../domain/clinical/measurements';
import type { TherapyFact } from '../../domain/clinical/therapy-history';
import { evidence, questionnaire, syntheticRecord, visitNote } from './synthetic-records';
import { shippedClinicalCatalog, shippedIcd10Subset } from '../../infrastructure/catalogs/shipped-catalogs';

const extractor = shippedClinicalCatalog().extractor;

function factsOf(overrides: Partial<ClinicalRecord>): ClinicalFacts {
  const record = syntheticRecord(overrides);
  return extractor.extract(
    record,
    record.diagnoses.map((diagnosis) => shippedIcd10Subset().resolve(diagnosis)),
  );
}

function noteFacts(text: string): ClinicalFacts {
  return factsOf({ visitNotes: [visitNote(text)] });
}

function onlyMeasurement(facts: ClinicalFacts): MeasurementFact {
  expect(facts.measurements).toHaveLength(1);
  return facts.measurements[0] as MeasurementFact;
}

function therapy(facts: ClinicalFacts, name: string): TherapyFact {
  const found = facts.therapies.filter((fact) => fact.therapy === name);
  expect(found).toHaveLength(1);
  return found[0] as TherapyFact;
}

const exactly = (value: number) => ({
  low: { value, inclusive: true },
  high: { value, inclusive: true },
});

describe('reading measurements from text', () => {
  it.each([
    ['BMI 32.4', 'bmi', 32.4, 'BMI 32.4'],
    ['Weight 98 kg, BMI: 32.4 kg/m2, BP 128/82', 'bmi', 32.4, 'BMI: 32.4 kg/m2'],
    ['Body mass index is 31', 'bmi', 31, 'Body mass index is 31'],
    ['A1c 8.1 %', 'a1c', 8.1, 'A1c 8.1 %'],
    ['HbA1c of 7.9% last month', 'a1c', 7.9, 'HbA1c of 7.9%'],
    ['LDL 142 mg/dL', 'ldl', 142, 'LDL 142 mg/dL'],
    ['eosinophils 300 cells/uL', 'eosinophils', 300, 'eosinophils 300 cells/uL'],
    ['Total IgE 240 IU/mL', 'ige', 240, 'Total IgE 240 IU/mL'],
  ])('reads %p', (text, name, value, excerpt) => {
    const fact = onlyMeasurement(noteFacts(text));
    expect(fact).toMatchObject({ name, range: exactly(value), citation: { excerpt } });
  });

  it('converts an LDL-C in mmol/L to mg/dL', () => {
    const fact = onlyMeasurement(noteFacts('LDL-C: 3.1 mmol/L'));
    expect(fact.range).toEqual(exactly(119.88));
    expect(fact.display).toBe('119.88 mg/dL (3.1 mmol/L)');
  });

  it('converts an eosinophil count in x10^9/L to cells/µL', () => {
    const fact = onlyMeasurement(noteFacts('eos 0.4 x10^9/L'));
    expect(fact).toMatchObject({
      name: 'eosinophils',
      range: exactly(400),
      display: '400 cells/µL (0.4 x10^9/L)',
    });
  });

  it('converts an A1c in mmol/mol to percent', () => {
    expect(onlyMeasurement(noteFacts('HbA1c 64 mmol/mol')).range).toEqual(exactly(8.01));
  });

  it('reads a unitless eosinophil count below 5 as x10^9/L', () => {
    expect(onlyMeasurement(noteFacts('Eosinophils 0.3')).range).toEqual(exactly(300));
  });

  it('ignores an eosinophil percentage, which cannot be converted without the white count', () => {
    expect(noteFacts('Eosinophils 4 %').measurements).toEqual([]);
  });

  it('ignores a goal stated for the value', () => {
    expect(noteFacts('LDL goal < 70 mg/dL. Goal A1c < 7%.').measurements).toEqual([]);
  });

  it('ignores a name whose value is reported missing', () => {
    expect(noteFacts('BMI not recorded, weight 95 kg').measurements).toEqual([]);
  });

  it('reads a comparison before the number as a bound', () => {
    expect(onlyMeasurement(noteFacts('eosinophils >300 cells/uL')).range).toEqual({
      low: { value: 300, inclusive: false },
      high: null,
    });
  });

  it('dates a measurement with its visit note', () => {
    expect(onlyMeasurement(factsOf({ visitNotes: [visitNote('BMI 33', '2025-12-24')] })).date).toBe(
      '2025-12-24',
    );
  });

  it('reads a BMI band from a Z68 diagnosis code', () => {
    const fact = onlyMeasurement(factsOf({ diagnoses: [{ code: 'Z68.35' }] }));
    expect(fact).toMatchObject({
      range: { low: { value: 35, inclusive: true }, high: { value: 36, inclusive: false } },
      citation: { source: 'diagnosis Z68.35' },
    });
  });
});

describe('reading prior therapies from text', () => {
  it('reads "metformin 6 months" as a six-month trial', () => {
    expect(therapy(noteFacts('metformin 6 months'), 'metformin')).toMatchObject({
      assertion: 'tried',
      duration: { min: 180, max: 180 },
      citation: { source: 'visit note 2026-02-10', excerpt: 'metformin 6 months' },
    });
  });

  it('reads "on metformin for 6 months"', () => {
    expect(therapy(noteFacts('Patient on metformin for 6 months.'), 'metformin').duration).toEqual({
      min: 180,
      max: 180,
    });
  });

  it('reads a length stated before the drug', () => {
    expect(therapy(noteFacts('Completed 6 months of metformin.'), 'metformin').duration).toEqual({
      min: 180,
      max: 180,
    });
  });

  it('reads "tried methotrexate for 12 weeks"', () => {
    expect(therapy(noteFacts('tried methotrexate for 12 weeks'), 'methotrexate')).toMatchObject({
      assertion: 'tried',
      duration: { min: 84, max: 84 },
      citation: { excerpt: 'methotrexate for 12 weeks' },
    });
  });

  it('reads "failed topical corticosteroids" as a trial of no stated length', () => {
    expect(therapy(noteFacts('failed topical corticosteroids'), 'topical corticosteroid')).toMatchObject({
      assertion: 'tried',
      duration: null,
      citation: { excerpt: 'failed topical corticosteroids' },
    });
  });

  it('reads "since 2024" as the range of lengths the year allows, counted to the as-of date', () => {
    expect(therapy(noteFacts('atorvastatin 80 mg daily since 2024'), 'atorvastatin')).toMatchObject({
      assertion: 'tried',
      duration: { min: 425, max: 790 },
      citation: { excerpt: 'atorvastatin 80 mg daily since 2024' },
    });
  });

  it('reads "at least 3 months" as a trial of 3 months or more', () => {
    expect(therapy(noteFacts('On metformin for at least 3 months.'), 'metformin').duration).toEqual({
      min: 90,
      max: Infinity,
    });
  });

  it('does not read a dosing interval as a length of trial', () => {
    expect(therapy(noteFacts('adalimumab 40 mg every 2 weeks'), 'adalimumab').duration).toBeNull();
  });

  it('reads the trial length after a dosing interval', () => {
    expect(therapy(noteFacts('Humira 40 mg every 2 weeks for 6 months'), 'humira').duration).toEqual({
      min: 180,
      max: 180,
    });
  });

  it.each([
    ['no prior metformin'],
    ['Never tried metformin.'],
    ['Patient denies metformin use.'],
    ['Has not tried metformin.'],
    ["Hasn't taken metformin"],
    ['Metformin: none'],
    ['metformin (not tried)'],
  ])('reads %p as no trial', (text) => {
    expect(therapy(noteFacts(text), 'metformin')).toMatchObject({ assertion: 'not_tried', duration: null });
  });

  it('carries a negation across a list of drugs', () => {
    const facts = noteFacts('Denies metformin, glipizide or insulin.');
    expect(therapy(facts, 'metformin').assertion).toBe('not_tried');
    expect(therapy(facts, 'glipizide').assertion).toBe('not_tried');
  });

  it('does not carry a negation of something else to the drug', () => {
    expect(therapy(noteFacts('No complications, on metformin for 6 months'), 'metformin').assertion).toBe(
      'tried',
    );
  });

  it('ends a negation at "but"', () => {
    const facts = noteFacts('No prior glipizide but metformin for 4 months');
    expect(therapy(facts, 'glipizide').assertion).toBe('not_tried');
    expect(therapy(facts, 'metformin')).toMatchObject({ assertion: 'tried', duration: { min: 120 } });
  });

  it('reads "no improvement on" as a failed trial, not a negation', () => {
    expect(
      therapy(noteFacts('No improvement on methotrexate after 16 weeks'), 'methotrexate').assertion,
    ).toBe('tried');
  });

  it('reads "no side effects on" as a trial, not an intolerance', () => {
    expect(therapy(noteFacts('No side effects on metformin'), 'metformin').assertion).toBe('tried');
  });

  it.each([['Intolerant to statins'], ['Statin intolerance (myalgias)'], ['allergic to statin']])(
    'reads %p as an intolerance',
    (text) => {
      expect(therapy(noteFacts(text), 'statin').assertion).toBe('intolerant');
    },
  );

  it.each([
    ['Metformin stopped after 2 weeks because of GI intolerance.'],
    ['Metformin 500 mg for 10 days, discontinued due to severe nausea.'],
  ])('reads a trial ended by an intolerance as an intolerance: %p', (text) => {
    expect(therapy(noteFacts(text), 'metformin').assertion).toBe('intolerant');
  });

  it('does not read an intolerance of something else after the drug as the drug’s', () => {
    const facts = noteFacts('Metformin for 2 weeks. Stopped lisinopril because of cough.');
    expect(therapy(facts, 'metformin')).toMatchObject({ assertion: 'tried' });
  });

  it('ignores a therapy that is only planned', () => {
    expect(noteFacts('Plan to start metformin next visit.').therapies).toEqual([]);
  });

  it('keeps the exact words of the record in the citation', () => {
    expect(therapy(noteFacts('Hx: FAILED  Methotrexate x 3 months.'), 'methotrexate').citation.excerpt).toBe(
      'FAILED Methotrexate x 3 months',
    );
  });
});

describe('reading questionnaire answers', () => {
  const question = 'Has the patient tried metformin for at least 3 months?';

  it('counts a yes to a question about a trial as that trial', () => {
    const facts = factsOf({ questionnaires: [questionnaire([[question, 'Yes']])] });
    expect(therapy(facts, 'metformin')).toMatchObject({
      assertion: 'tried',
      duration: { min: 90, max: Infinity },
      date: '2026-02-12',
      citation: { source: `questionnaire: "${question}"`, excerpt: 'Yes' },
    });
  });

  it('counts a no to a question about a trial as a denial of that trial', () => {
    const facts = factsOf({ questionnaires: [questionnaire([[question, 'No']])] });
    expect(therapy(facts, 'metformin')).toMatchObject({ assertion: 'not_tried', duration: { min: 90 } });
  });

  it('reads a bare value as the answer to the measurement the question names', () => {
    const facts = factsOf({
      questionnaires: [questionnaire([["What is the patient's most recent BMI?", '32.4']])],
    });
    expect(onlyMeasurement(facts)).toMatchObject({
      name: 'bmi',
      range: exactly(32.4),
      citation: { excerpt: '32.4' },
    });
  });

  it('reads a bare length as the answer to the therapy the question names', () => {
    const facts = factsOf({
      questionnaires: [questionnaire([['How long was methotrexate taken?', '16 weeks']])],
    });
    expect(therapy(facts, 'methotrexate').duration).toEqual({ min: 112, max: 112 });
  });

  it('reads a no to a threshold question as a value on the other side of it', () => {
    const facts = factsOf({ questionnaires: [questionnaire([['Is the BMI at least 30 kg/m2?', 'No']])] });
    expect(onlyMeasurement(facts)).toMatchObject({
      range: { low: null, high: { value: 30, inclusive: false } },
      display: 'below 30 kg/m²',
    });
  });

  it('reads nothing from an answer of N/A', () => {
    const facts = factsOf({ questionnaires: [questionnaire([[question, 'N/A']])] });
    expect(facts.therapies).toEqual([]);
  });

  it('reads a free-text answer on its own', () => {
    const facts = factsOf({
      questionnaires: [
        questionnaire([['Prior therapies', 'Methotrexate 15 mg weekly for 6 months, failed']]),
      ],
    });
    expect(therapy(facts, 'methotrexate')).toMatchObject({ assertion: 'tried', duration: { min: 180 } });
  });
});

describe('reading evidence', () => {
  it('reads a measurement stored under its own key', () => {
    const facts = factsOf({ evidence: [evidence('Vitals', { content: { bmi: 32.4 } })] });
    expect(onlyMeasurement(facts)).toMatchObject({
      name: 'bmi',
      range: exactly(32.4),
      date: '2026-02-01',
      citation: { source: 'evidence "Vitals"', excerpt: 'bmi: 32.4' },
    });
  });

  it('reads a lab row of name, value and unit', () => {
    const facts = factsOf({
      evidence: [evidence('Lab results', { content: { labs: [{ name: 'A1c', value: 8.1, unit: '%' }] } })],
    });
    expect(onlyMeasurement(facts)).toMatchObject({
      name: 'a1c',
      range: exactly(8.1),
      citation: { excerpt: 'A1c: 8.1 %' },
    });
  });

  it('reads a value and unit stored under the measurement name', () => {
    const facts = factsOf({
      evidence: [evidence('Lipids', { content: { ldl_c: { value: 3.1, unit: 'mmol/L' } } })],
    });
    expect(onlyMeasurement(facts).range).toEqual(exactly(119.88));
  });

  it('dates values with a date found beside them', () => {
    const facts = factsOf({
      evidence: [evidence('Labs', { content: { panel: { date: '2025-11-03', hba1c: 8.4 } } }, '2026-02-01')],
    });
    expect(onlyMeasurement(facts).date).toBe('2025-11-03');
  });

  it('reads a medication row with a length and an outcome', () => {
    const facts = factsOf({
      evidence: [
        evidence('Medication history', {
          content: { medications: [{ drug: 'metformin', duration_months: 6, status: 'discontinued' }] },
        }),
      ],
    });
    expect(therapy(facts, 'metformin')).toMatchObject({
      assertion: 'tried',
      duration: { min: 180, max: 180 },
    });
  });

  it('reads a false flag about a trial as a denial', () => {
    const facts = factsOf({ evidence: [evidence('Intake form', { content: { tried_metformin: false } })] });
    expect(therapy(facts, 'metformin')).toMatchObject({
      assertion: 'not_tried',
      citation: { excerpt: 'tried_metformin: false' },
    });
  });

  it('reads the text of a plain-text file', () => {
    const facts = factsOf({ evidence: [evidence('Referral letter', { text: 'Current BMI 36.2 kg/m2.' })] });
    expect(onlyMeasurement(facts).range).toEqual(exactly(36.2));
  });

  it('reads a CSV file', () => {
    const facts = factsOf({
      evidence: [evidence('CBC', { text: 'test,value,unit\nEosinophils,0.45,x10^9/L\nWBC,7.1,x10^9/L' })],
    });
    expect(onlyMeasurement(facts)).toMatchObject({ name: 'eosinophils', range: exactly(450) });
  });

  it('reads a JSON file like JSON content', () => {
    const facts = factsOf({ evidence: [evidence('Export', { text: '{"vitals": {"bmi": 29.5}}' })] });
    expect(onlyMeasurement(facts).range).toEqual(exactly(29.5));
  });
});

describe('the documents of a record', () => {
  it('leaves out questions answered no, which document an absence', () => {
    const facts = factsOf({
      questionnaires: [
        questionnaire([
          ['Any asthma exacerbations in the last year?', 'No'],
          ['Diet counselling given?', 'Yes'],
        ]),
      ],
    });
    expect(facts.documents).toEqual([
      {
        kind: 'questionnaire',
        source: 'questionnaire 2026-02-12',
        date: '2026-02-12',
        text: 'Diet counselling given? Yes',
      },
    ]);
  });
});
