import type { ClinicalRecord, CriterionResult, DrugEligibility } from '../../domain/clinical/clinical-model';
import { CLINICAL_CATALOG_DRUGS } from '../../domain/clinical/criteria';
import type { CatalogDrugName, CriterionNode, DrugCriteria } from '../../domain/clinical/criteria';
import { ClinicalCatalog } from '../../domain/clinical/criteria-catalog';
import { evaluateClinicalEligibility } from '../../domain/clinical/criteria-evaluation';
import { DRUG_CASES } from './drug-cases';
import { bornOn, evidence, NO_PLAN, questionnaire, syntheticRecord, visitNote } from './synthetic-records';
import {
  shippedClinicalCatalog,
  shippedIcd10Subset,
  shippedPayerCatalog,
} from '../../infrastructure/catalogs/shipped-catalogs';

const catalog = shippedClinicalCatalog();

function evaluateOne(drug: string, overrides: Partial<ClinicalRecord>): DrugEligibility {
  const [result] = evaluateClinicalEligibility(
    syntheticRecord({ ...overrides, drugs: [{ name: drug, quantity: 1 }] }),
    NO_PLAN,
    shippedClinicalCatalog(),
  ).results;
  if (!result) throw new Error('No result');
  return result;
}

function criterion(result: DrugEligibility, id: string): CriterionResult {
  const found = result.criteria.find((item) => item.id === id);
  if (!found)
    throw new Error(`No criterion ${id} among ${result.criteria.map((item) => item.id).join(', ')}`);
  return found;
}

function leaves(node: CriterionNode): Array<Extract<CriterionNode, { check: unknown }>> {
  if ('check' in node) return [node];
  return ('all_of' in node ? node.all_of : node.any_of).flatMap(leaves);
}

const withCriteria = catalog.criteria;
const drugNames = (): CatalogDrugName[] =>
  catalog.drugs.map(({ id, name, generic_name }) => ({ id, brand_name: name, generic_name }));

describe('the clinical criteria catalog', () => {
  it('defines criteria for at least 12 drugs, exactly those CLINICAL_CATALOG_DRUGS names', () => {
    expect(CLINICAL_CATALOG_DRUGS.length).toBeGreaterThanOrEqual(12);
    expect(catalog.drugs.filter((drug) => drug.criteria).map((drug) => drug.name)).toEqual([
      ...CLINICAL_CATALOG_DRUGS,
    ]);
  });

  it('knows every drug of the drug list, keyed by its id', () => {
    expect(catalog.drugs.map((drug) => drug.id)).toEqual(shippedPayerCatalog().drugs.map((drug) => drug.id));
  });

  it('spans several therapeutic areas', () => {
    const areas = new Set(withCriteria.map((entry) => entry.therapeutic_area.split(':')[0]));
    expect(areas.size).toBeGreaterThanOrEqual(6);
  });

  it('uses every kind of criterion', () => {
    const kinds = new Set(
      withCriteria.flatMap((entry) => leaves(entry.criteria).map((leaf) => leaf.check.kind)),
    );
    expect(kinds).toEqual(new Set(['age', 'diagnosis', 'measurement', 'prior_therapy', 'documentation']));
  });

  it('describes every code and family its diagnosis criteria use', () => {
    const prefixes = withCriteria.flatMap((entry) =>
      leaves(entry.criteria).flatMap((leaf) =>
        leaf.check.kind === 'diagnosis' ? leaf.check.code_prefixes : [],
      ),
    );
    for (const prefix of prefixes)
      expect([prefix, shippedIcd10Subset().describe(prefix)]).toEqual([prefix, expect.any(String)]);
  });

  it('gives every criterion a readable description, and every top-level criterion a question', () => {
    for (const entry of withCriteria) {
      for (const leaf of leaves(entry.criteria)) expect(leaf.description).toMatch(/^[A-Z].{10,}$/);
      for (const criterion of entry.criteria.all_of) expect(criterion.question).toMatch(/^[A-Z].{10,}\?$/);
    }
  });

  it('refuses a catalog whose criterion names a code the ICD-10-CM subset lacks', () => {
    const broken: DrugCriteria = {
      ...(withCriteria[0] as DrugCriteria),
      criteria: {
        all_of: [
          {
            id: 'odd',
            question: 'Odd?',
            description: 'Odd code',
            check: { kind: 'diagnosis', label: 'odd', code_prefixes: ['Q99'] },
          },
        ],
      },
    };
    expect(
      () => new ClinicalCatalog(drugNames(), [broken, ...withCriteria.slice(1)], shippedIcd10Subset()),
    ).toThrow('ozempic odd: uses Q99, which the ICD-10-CM subset lacks');
  });

  it('refuses a measurement threshold written in another unit than the canonical one', () => {
    const broken = withCriteria.map((entry): DrugCriteria =>
      entry.drug_id === 'praluent'
        ? {
            ...entry,
            criteria: {
              all_of: [
                {
                  id: 'ldl',
                  question: 'LDL?',
                  description: 'LDL in mmol/L',
                  check: {
                    kind: 'measurement',
                    name: 'ldl',
                    comparator: '>=',
                    threshold: 1.8,
                    unit: 'mmol/L',
                  },
                },
              ],
            },
          }
        : entry,
    );
    expect(() => new ClinicalCatalog(drugNames(), broken, shippedIcd10Subset())).toThrow(
      'states ldl in mmol/L, not mg/dL',
    );
  });

  it('refuses criteria for a drug the drug list lacks, and an override omitting an unknown criterion', () => {
    const ozempic = withCriteria[0] as DrugCriteria;
    const stray: DrugCriteria = { ...ozempic, drug_id: 'ozempik' };
    const badOverride: DrugCriteria = {
      ...ozempic,
      formulary_overrides: [
        { formularies: ['medicare_part_d'], reason: 'test', omit: ['no_such_criterion'] },
      ],
    };
    expect(() => new ClinicalCatalog(drugNames(), [...withCriteria, stray], shippedIcd10Subset())).toThrow(
      'ozempik is not a drug of drugs.json',
    );
    expect(
      () => new ClinicalCatalog(drugNames(), [badOverride, ...withCriteria.slice(1)], shippedIcd10Subset()),
    ).toThrow('ozempic: an override omits unknown criterion no_such_criterion');
  });
});

describe.each(DRUG_CASES)('$drug', (drugCase) => {
  it('qualifies a patient who meets every criterion', () => {
    const result = evaluateOne(drugCase.drug, drugCase.qualifying);
    expect(result).toMatchObject({
      catalog_drug: drugCase.drug,
      status: 'qualified',
      unqualified_reasons: [],
    });
  });

  it('cites the evidence that decided each deciding criterion', () => {
    const result = evaluateOne(drugCase.drug, drugCase.qualifying);
    for (const [id, excerpt] of drugCase.cites) {
      const decided = criterion(result, id);
      expect({ id, status: decided.status }).toEqual({ id, status: 'met' });
      expect(decided.evidence.map((citation) => citation.excerpt)).toContainEqual(
        expect.stringContaining(excerpt),
      );
    }
  });

  it('does not qualify a patient who fails a criterion, and says why', () => {
    const result = evaluateOne(drugCase.drug, drugCase.nonQualifying);
    expect(result.status).toBe('unqualified');
    expect(criterion(result, drugCase.failing).status).toBe('not_met');
    expect(result.unqualified_reasons).toEqual([{ description: drugCase.reason }]);
  });
});

describe('prior authorization without a plan', () => {
  it.each([
    ['Trulicity', 'yes'],
    ['Zepbound', 'not_applicable'],
    ['Remicade', 'yes'],
    ['Jardiance', 'no'],
  ])('reports for %s what most sandbox formularies say: %s', (drug, requirement) => {
    expect(evaluateOne(drug, {}).prior_authorization_requirement).toBe(requirement);
  });
});

it('has a qualifying and a non-qualifying case for every catalog drug', () => {
  expect(DRUG_CASES.map((drugCase) => drugCase.drug).sort()).toEqual([...CLINICAL_CATALOG_DRUGS].sort());
});

describe('finding the catalog drug', () => {
  it('ignores strength and dosage words in the requested name', () => {
    expect(evaluateOne('Ozempic 1 mg/0.74 mL pen', {}).catalog_drug).toBe('Ozempic');
  });

  it('matches a brand name regardless of case', () => {
    expect(evaluateOne('HUMIRA PEN', {}).catalog_drug).toBe('Humira');
  });

  it('matches a generic name that only one catalog drug has', () => {
    expect(evaluateOne('adalimumab 40 mg/0.4 mL', {}).catalog_drug).toBe('Humira');
  });

  it('leaves a generic name shared by brands with different indications unmatched', () => {
    expect(evaluateOne('semaglutide 2.4 mg', {}).catalog_drug).toBeNull();
  });

  it('qualifies a patient for a catalog drug no plan asks clinical criteria for', () => {
    expect(evaluateOne('Lisinopril 10 mg', {})).toEqual({
      drug: 'Lisinopril 10 mg',
      catalog_drug: 'lisinopril',
      status: 'qualified',
      criteria: [],
      unqualified_reasons: [],
      prior_authorization_required: false,
      prior_authorization_requirement: 'no',
    });
  });

  it('answers unknown, without criteria or reasons, for a drug outside the catalog', () => {
    expect(evaluateOne('Amoxicillin 500 mg', {})).toEqual({
      drug: 'Amoxicillin 500 mg',
      catalog_drug: null,
      status: 'unknown',
      criteria: [],
      unqualified_reasons: [],
      prior_authorization_required: null,
      prior_authorization_requirement: null,
    });
  });
});

describe('each kind of criterion', () => {
  const ozempicBase: Partial<ClinicalRecord> = {
    diagnoses: [{ code: 'E11.9' }],
    visitNotes: [visitNote('A1c 8.1 %. On metformin for 8 months.')],
  };

  it('fails a diagnosis criterion when no submitted diagnosis is in the required family', () => {
    const result = evaluateOne('Ozempic', { ...ozempicBase, diagnoses: [{ code: 'E10.9' }] });
    expect(criterion(result, 'type2_diabetes')).toMatchObject({
      status: 'not_met',
      evidence: [{ source: 'diagnosis E10.9', excerpt: 'E10.9' }],
    });
    expect(result.unqualified_reasons).toEqual([
      { description: 'No diagnosis of type 2 diabetes mellitus (E11.*) was submitted.' },
    ]);
  });

  it('leaves a diagnosis criterion unknown when a description could not be mapped to a code', () => {
    const result = evaluateOne('Ozempic', { ...ozempicBase, diagnoses: [{ description: 'sugar problems' }] });
    expect(criterion(result, 'type2_diabetes').status).toBe('unknown');
    expect(result.status).toBe('unknown');
  });

  it('meets a diagnosis criterion from a description alone', () => {
    const result = evaluateOne('Ozempic', { ...ozempicBase, diagnoses: [{ description: 'T2DM' }] });
    expect(criterion(result, 'type2_diabetes')).toMatchObject({
      status: 'met',
      evidence: [{ source: 'diagnosis E11.9', excerpt: 'T2DM' }],
    });
  });

  it('judges a diagnosis by its code even when its description names another condition', () => {
    const result = evaluateOne('Ozempic', {
      ...ozempicBase,
      diagnoses: [{ code: 'I10', description: 'type 2 diabetes' }],
    });
    expect(criterion(result, 'type2_diabetes').status).toBe('not_met');
  });

  it('cites an age, not the date of birth', () => {
    expect(criterion(evaluateOne('Ozempic', ozempicBase), 'adult').evidence).toEqual([
      { source: 'patient date of birth', excerpt: 'age 50 years' },
    ]);
  });

  it('computes the age on the as-of date, not today', () => {
    const seventeen = evaluateOne('Ozempic', { ...ozempicBase, ...bornOn('2008-03-02') });
    const eighteen = evaluateOne('Ozempic', { ...ozempicBase, ...bornOn('2008-03-01') });
    expect([criterion(seventeen, 'adult').status, criterion(eighteen, 'adult').status]).toEqual([
      'not_met',
      'met',
    ]);
  });

  it('groups ages of 90 and over so the citation does not identify the patient', () => {
    const result = evaluateOne('Ozempic', { ...ozempicBase, ...bornOn('1930-01-01') });
    expect(criterion(result, 'adult').evidence[0]?.excerpt).toBe('age 90 years or older');
  });

  it('leaves an age criterion unknown when the date of birth is not a date', () => {
    expect(criterion(evaluateOne('Ozempic', { ...ozempicBase, ...bornOn('unknown') }), 'adult').status).toBe(
      'unknown',
    );
  });

  it('judges a measurement by the most recent value', () => {
    const result = evaluateOne('Ozempic', {
      ...ozempicBase,
      visitNotes: [
        visitNote('A1c 6.2 %, metformin for 8 months', '2026-01-05'),
        visitNote('A1c 7.4 %', '2026-02-20'),
      ],
    });
    expect(criterion(result, 'a1c_at_least_7')).toMatchObject({
      status: 'met',
      evidence: [{ source: 'visit note 2026-02-20', excerpt: 'A1c 7.4 %' }],
    });
  });

  it('leaves a measurement unknown when the only value is older than the criterion allows', () => {
    const result = evaluateOne('Ozempic', {
      ...ozempicBase,
      visitNotes: [visitNote('A1c 8.1 %, on metformin for 8 months', '2025-06-01')],
    });
    expect(criterion(result, 'a1c_at_least_7')).toEqual(
      expect.objectContaining({ status: 'unknown', evidence: [] }),
    );
  });

  it('meets a measurement from a value converted to the criterion unit', () => {
    const result = evaluateOne('Repatha', {
      diagnoses: [{ code: 'E78.5' }],
      visitNotes: [visitNote('LDL-C: 2.0 mmol/L on rosuvastatin 20 mg for 6 months.')],
    });
    expect(criterion(result, 'ldl_at_least_70').status).toBe('met');
    expect(result.status).toBe('qualified');
  });

  it('fails a measurement when a questionnaire says the value is below the threshold', () => {
    const result = evaluateOne('Zepbound', {
      diagnoses: [{ code: 'I10' }],
      questionnaires: [questionnaire([['Is the BMI 27 or higher?', 'No']])],
      visitNotes: [visitNote('Diet and exercise counselling provided.')],
    });
    expect(result.unqualified_reasons).toEqual([
      { description: 'BMI is reported as below 27 kg/m²; the requirement is at least 27 kg/m².' },
    ]);
  });

  it('counts a documented intolerance as meeting a step-therapy criterion', () => {
    const result = evaluateOne('Ozempic', {
      ...ozempicBase,
      visitNotes: [visitNote('A1c 8.1 %. Metformin: not tolerated (GI upset).')],
    });
    expect(criterion(result, 'metformin_trial')).toMatchObject({
      status: 'met',
      evidence: [{ excerpt: 'Metformin: not tolerated' }],
    });
  });

  it('leaves a step-therapy criterion unknown, citing the mention, when the trial length is not stated', () => {
    const result = evaluateOne('Ozempic', {
      ...ozempicBase,
      visitNotes: [visitNote('A1c 8.1 %. Takes metformin.')],
    });
    expect(criterion(result, 'metformin_trial')).toMatchObject({
      status: 'unknown',
      evidence: [{ source: 'visit note 2026-02-10', excerpt: 'metformin' }],
    });
    expect(result.status).toBe('unknown');
  });

  it('fails a step-therapy criterion when the record denies the trial', () => {
    const result = evaluateOne('Ozempic', {
      ...ozempicBase,
      visitNotes: [visitNote('A1c 8.1 %. No prior metformin.')],
    });
    expect(result.unqualified_reasons).toEqual([
      { description: 'No trial of metformin for at least 3 months is documented.' },
    ]);
  });

  it('fails a documentation criterion when the only document is older than allowed', () => {
    const result = evaluateOne('Humira', {
      diagnoses: [{ code: 'M05.9' }],
      visitNotes: [
        visitNote('Failed methotrexate for 6 months.'),
        visitNote('QuantiFERON negative.', '2024-11-01'),
      ],
    });
    expect(criterion(result, 'tuberculosis_screening')).toEqual(
      expect.objectContaining({ status: 'not_met', evidence: [] }),
    );
  });

  it('does not count a documentation mention that is negated', () => {
    const result = evaluateOne('Nucala', {
      diagnoses: [{ code: 'J45.50' }],
      visitNotes: [visitNote('Eosinophils 450 cells/uL. No exacerbations this year. Advair for 2 years.')],
    });
    expect(criterion(result, 'exacerbation_history').status).toBe('not_met');
  });

  it('answers unknown when nothing in the record speaks to a criterion', () => {
    const result = evaluateOne('Ozempic', { diagnoses: [{ code: 'E11.9' }] });
    expect(result.status).toBe('unknown');
    expect(result.unqualified_reasons).toEqual([]);
    expect(criterion(result, 'a1c_at_least_7')).toEqual(
      expect.objectContaining({ status: 'unknown', evidence: [] }),
    );
  });
});

describe('a recognised page read twice', () => {
  const faxedPage = (text: string, secondReading: string) => ({
    diagnoses: [{ code: 'E11.9' }],
    evidence: [{ ...evidence('Referral letter, page 2', { text }), recognised: true, secondReading }],
  });

  it('takes a value the first reading lost from the second, citing the words the second read', () => {
    const result = evaluateOne(
      'Ozempic',
      faxedPage(
        'Hemoglobin Alc 8.9 ~% metformin for 8 months',
        'Hemoglobin Alc 8.9 % metformin for 8 months',
      ),
    );
    expect(criterion(result, 'a1c_at_least_7')).toMatchObject({
      status: 'met',
      evidence: [
        { source: 'evidence "Referral letter, page 2" (second reading)', excerpt: 'Hemoglobin Alc 8.9 %' },
      ],
    });
  });

  it('keeps the first reading where both name a value, so the second never turns the judgement', () => {
    const result = evaluateOne(
      'Ozempic',
      faxedPage('Hemoglobin A1c 6.5 % metformin for 8 months', 'Hemoglobin A1c 8.5 % metformin for 8 months'),
    );
    expect(criterion(result, 'a1c_at_least_7')).toMatchObject({ status: 'not_met' });
  });

  it.each([
    ['a goal', 'A1c goal 6.5 %. Metformin for 8 months.', 'A1c qoal 6.5 %. Metformin for 8 months.'],
    [
      'a test not done',
      'A1c not done 8.9 %. Metformin for 8 months.',
      'A1c nat done 8.9 %. Metformin for 8 months.',
    ],
    [
      'a name without a number',
      'A1c goal. Metformin for 8 months.',
      'A1c qoal 8.9 %. Metformin for 8 months.',
    ],
  ])('takes no value from the second reading where the first speaks of %s', (_case, text, secondReading) => {
    const result = evaluateOne('Ozempic', faxedPage(text, secondReading));
    expect(criterion(result, 'a1c_at_least_7')).toMatchObject({ status: 'unknown' });
  });

  it('takes no trial from the second reading of a therapy the first reading plans', () => {
    const result = evaluateOne(
      'Ozempic',
      faxedPage(
        'A1c 8.1 %. Recommend metformin for 3 months.',
        'A1c 8.1 %. Rec0mmend metformin for 3 months.',
      ),
    );
    expect(criterion(result, 'metformin_trial')).toMatchObject({
      status: expect.not.stringMatching(/^met$/),
    });
  });

  it.each([
    [
      'an A1c whose decimal point the first lost',
      'a1c_at_least_7',
      'Hemoglobin A1c 89 %. Metformin for 8 months.',
      'Hemoglobin A1c 8.9 %. Metformin for 8 months.',
    ],
    [
      'a therapy only the second mentions',
      'metformin_trial',
      'A1c 8.1 %. On me~formin for 8 months.',
      'A1c 8.1 %. On metformin for 8 months.',
    ],
  ])('takes from the second reading %s', (_case, criterionId, text, secondReading) => {
    const result = evaluateOne('Ozempic', faxedPage(text, secondReading));
    expect(criterion(result, criterionId)).toMatchObject({ status: 'met' });
  });
});

describe('alternative paths', () => {
  const counselled = visitNote('BMI 28.0 kg/m2 today. Reduced-calorie diet and exercise plan reviewed.');

  it('explains the missing comorbidity when the BMI reaches only the lower threshold', () => {
    const result = evaluateOne('Wegovy', { diagnoses: [{ code: 'E66.3' }], visitNotes: [counselled] });
    expect(result.unqualified_reasons).toEqual([
      {
        description:
          'No diagnosis of a weight-related condition (hypertension, dyslipidemia, type 2 diabetes, ' +
          'obstructive sleep apnea or coronary artery disease) was submitted.',
      },
    ]);
  });

  it('explains the BMI alone when a weight-related condition is present', () => {
    const result = evaluateOne('Wegovy', {
      diagnoses: [{ code: 'G47.33' }],
      visitNotes: [visitNote('BMI 25.5 kg/m2. Reduced-calorie diet and exercise plan reviewed.')],
    });
    expect(result.unqualified_reasons).toEqual([
      { description: 'BMI 25.5 kg/m² is below the required 27 kg/m².' },
    ]);
  });

  it('qualifies through any one indication of a drug with several', () => {
    const result = evaluateOne('Dupixent', {
      ...bornOn('2015-05-05'),
      diagnoses: [{ description: 'moderate persistent asthma' }],
      evidence: [evidence('CBC', { content: { eosinophils: { value: 310, unit: 'cells/uL' } } })],
    });
    expect(result.status).toBe('qualified');
    expect(criterion(result, 'atopic_dermatitis').status).toBe('not_met');
  });

  it('explains only the path that came closest', () => {
    const result = evaluateOne('Humira', {
      diagnoses: [{ code: 'M06.9' }],
      visitNotes: [visitNote('Never tried methotrexate or other DMARDs. TB screening negative.')],
    });
    expect(result.unqualified_reasons).toEqual([
      {
        description:
          'No trial of methotrexate or another conventional DMARD for at least 12 weeks is documented.',
      },
    ]);
  });

  it('names every accepted diagnosis in one sentence when none was submitted', () => {
    const result = evaluateOne('Humira', {
      diagnoses: [{ code: 'M19.90' }],
      visitNotes: [visitNote('TB screening negative.')],
    });
    expect(result.unqualified_reasons).toEqual([
      {
        description:
          'No diagnosis of rheumatoid arthritis (M05.*, M06.*), psoriasis or psoriatic arthritis (L40.*), ' +
          "Crohn's disease (K50.*) or ulcerative colitis (K51.*) was submitted.",
      },
    ]);
  });

  it('lists a criterion of every path, met or not, in the criteria', () => {
    const result = evaluateOne('Stelara', {});
    expect(result.criteria.map((item) => item.id)).toEqual([
      'psoriasis_age_6_or_older',
      'psoriasis',
      'psoriasis_conventional_therapy',
      'crohns_adult',
      'crohns_disease',
      'crohns_prior_therapy',
      'uc_adult',
      'ulcerative_colitis',
      'uc_prior_therapy',
      'tuberculosis_screening',
    ]);
  });
});

describe('the outcome', () => {
  const namedNote =
    'Corisande Testperson, MRN 00012345, seen today. BMI 24.0 kg/m2. No diet counselling. Never tried metformin.';

  it('never puts a name or other identifier from the record in the reasons', () => {
    const result = evaluateOne('Wegovy', {
      diagnoses: [{ code: 'E66.9' }],
      visitNotes: [visitNote(namedNote)],
    });
    expect(result.status).toBe('unqualified');
    const reasons = JSON.stringify(result.unqualified_reasons);
    for (const identifier of ['Corisande', 'Testperson', '00012345', '1975'])
      expect(reasons).not.toContain(identifier);
  });

  it('lists how each submitted diagnosis was understood, in order', () => {
    const outcome = evaluateClinicalEligibility(
      syntheticRecord({
        diagnoses: [
          { code: 'e11.9', description: 'obesity' },
          { description: 'hypertension' },
          { description: 'xyz' },
        ],
      }),
      NO_PLAN,
      shippedClinicalCatalog(),
    );
    expect(outcome.diagnoses.map((diagnosis) => [diagnosis.code, diagnosis.resolved_by])).toEqual([
      ['E11.9', 'code'],
      ['I10', 'description'],
      [null, 'unresolved'],
    ]);
  });

  it('answers each requested drug in request order', () => {
    const outcome = evaluateClinicalEligibility(
      syntheticRecord({
        drugs: [
          { name: 'Repatha', quantity: 2 },
          { name: 'Unknownol', quantity: 1 },
          { name: 'Ozempic', quantity: 1 },
        ],
      }),
      NO_PLAN,
      shippedClinicalCatalog(),
    );
    expect(outcome.results.map((result) => result.catalog_drug)).toEqual(['Repatha', null, 'Ozempic']);
  });

  it('is the same for the same record, evaluated again', () => {
    const record = syntheticRecord({
      drugs: CLINICAL_CATALOG_DRUGS.map((name) => ({ name, quantity: 1 })),
      ...DRUG_CASES[0]?.qualifying,
      visitNotes: DRUG_CASES.flatMap((drugCase) => drugCase.qualifying.visitNotes ?? []),
    });
    const first = evaluateClinicalEligibility(record, NO_PLAN, shippedClinicalCatalog());
    expect(evaluateClinicalEligibility(structuredClone(record), NO_PLAN, shippedClinicalCatalog())).toEqual(
      first,
    );
  });
});
