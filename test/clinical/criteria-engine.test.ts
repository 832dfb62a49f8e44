import type { ClinicalRecord, CriterionResult, DrugEligibility } from '../../src/clinical/clinical-model';
import type { ClinicalCatalogDrug, CriterionNode } from '../../src/clinical/criteria-engine';
import {
  CLINICAL_CATALOG_DRUGS,
  ClinicalCatalog,
  clinicalCatalog,
  evaluateClinicalEligibility,
} from '../../src/clinical/criteria-engine';
import { icd10Subset } from '../../src/clinical/icd10';
import { bornOn, evidence, questionnaire, syntheticRecord, visitNote } from './synthetic-records';

const catalog = clinicalCatalog();

function evaluateOne(drug: string, overrides: Partial<ClinicalRecord>): DrugEligibility {
  const [result] = evaluateClinicalEligibility(
    syntheticRecord({ ...overrides, drugs: [{ name: drug, quantity: 1 }] }),
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

interface DrugCase {
  drug: (typeof CLINICAL_CATALOG_DRUGS)[number];
  qualifying: Partial<ClinicalRecord>;
  /** Criteria that decided the qualification, each with words its evidence must cite. */
  cites: Array<[id: string, excerpt: string]>;
  nonQualifying: Partial<ClinicalRecord>;
  failing: string;
  reason: string;
}

const DRUG_CASES: DrugCase[] = [
  {
    drug: 'Ozempic',
    qualifying: {
      diagnoses: [{ code: 'E11.9' }],
      visitNotes: [visitNote('A1c 8.1 %. On metformin 1000 mg twice daily for 8 months.')],
    },
    cites: [
      ['type2_diabetes', 'E11.9'],
      ['a1c_at_least_7', 'A1c 8.1 %'],
      ['metformin_trial', 'metformin 1000 mg twice daily for 8 months'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'E11.9' }],
      visitNotes: [visitNote('A1c 6.4 %. On metformin 1000 mg twice daily for 8 months.')],
    },
    failing: 'a1c_at_least_7',
    reason: 'A1c 6.4 % is below the required 7 %.',
  },
  {
    drug: 'Mounjaro',
    qualifying: {
      diagnoses: [{ code: 'E11.65' }],
      visitNotes: [visitNote('Tried glipizide for 6 months without adequate control.')],
      evidence: [evidence('Lab results', { content: { labs: [{ name: 'HbA1c', value: 8.4, unit: '%' }] } })],
    },
    cites: [
      ['a1c_at_least_7', 'HbA1c: 8.4 %'],
      ['oral_antidiabetic_trial', 'glipizide for 6 months'],
      ['recent_labs', 'Lab results'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'E11.65' }],
      visitNotes: [visitNote('Has not tried metformin or any other oral antidiabetic medication.')],
      evidence: [evidence('Lab results', { content: { labs: [{ name: 'HbA1c', value: 8.4, unit: '%' }] } })],
    },
    failing: 'oral_antidiabetic_trial',
    reason: 'No trial of metformin or another oral antidiabetic agent for at least 3 months is documented.',
  },
  {
    drug: 'Trulicity',
    qualifying: {
      ...bornOn('2011-09-01'),
      diagnoses: [{ description: 'type 2 diabetes' }],
      questionnaires: [
        questionnaire([
          ['Most recent A1c?', '7.6%'],
          ['Has the patient tried metformin for at least 3 months?', 'Yes'],
        ]),
      ],
    },
    cites: [
      ['age_10_or_older', 'age 14 years'],
      ['type2_diabetes', 'type 2 diabetes'],
      ['a1c_at_least_7', '7.6%'],
      ['metformin_trial', 'Yes'],
    ],
    nonQualifying: {
      ...bornOn('2017-01-10'),
      diagnoses: [{ description: 'type 2 diabetes' }],
      questionnaires: [
        questionnaire([
          ['Most recent A1c?', '7.6%'],
          ['Has the patient tried metformin for at least 3 months?', 'Yes'],
        ]),
      ],
    },
    failing: 'age_10_or_older',
    reason: 'The patient is younger than the minimum age of 10 years.',
  },
  {
    drug: 'Wegovy',
    qualifying: {
      diagnoses: [{ description: 'essential hypertension' }],
      visitNotes: [
        visitNote('BMI 28.2 kg/m2. Counselled on a reduced-calorie diet and increased physical activity.'),
      ],
    },
    cites: [
      ['bmi_at_least_27', 'BMI 28.2 kg/m2'],
      ['weight_related_condition', 'essential hypertension'],
      ['lifestyle_program', 'reduced-calorie diet'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'I10' }],
      visitNotes: [
        visitNote('BMI 26.1 kg/m2. Counselled on a reduced-calorie diet and increased physical activity.'),
      ],
    },
    failing: 'bmi_at_least_27',
    reason: 'BMI 26.1 kg/m² is below the required 30 kg/m² (or 27 kg/m² with a weight-related condition).',
  },
  {
    drug: 'Zepbound',
    qualifying: {
      diagnoses: [{ code: 'E66.9' }],
      evidence: [evidence('Vitals', { content: { vitals: { bmi: 34.5, date: '2026-02-01' } } })],
      questionnaires: [
        questionnaire([['Is the patient on a reduced-calorie diet and exercise program?', 'Yes']]),
      ],
    },
    cites: [
      ['bmi_at_least_30', 'bmi: 34.5'],
      ['lifestyle_program', 'reduced-calorie diet and exercise program'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'E66.9' }],
      evidence: [evidence('Vitals', { content: { vitals: { bmi: 34.5, date: '2026-02-01' } } })],
    },
    failing: 'lifestyle_program',
    reason: 'No reduced-calorie diet and physical activity counselling from the last 6 months is documented.',
  },
  {
    drug: 'Humira',
    qualifying: {
      diagnoses: [{ code: 'M06.9' }],
      visitNotes: [
        visitNote(
          'Inadequate response to methotrexate 20 mg weekly for 16 weeks. QuantiFERON negative on 2026-01-05.',
        ),
      ],
    },
    cites: [
      ['rheumatoid_arthritis', 'M06.9'],
      ['conventional_dmard_trial', 'Inadequate response to methotrexate 20 mg weekly for 16 weeks'],
      ['tuberculosis_screening', 'QuantiFERON negative'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'M06.9' }],
      visitNotes: [visitNote('Methotrexate for 6 weeks so far. QuantiFERON negative on 2026-01-05.')],
    },
    failing: 'conventional_dmard_trial',
    reason:
      'The documented trial of methotrexate or another conventional DMARD (6 weeks) is shorter than the required 12 weeks.',
  },
  {
    drug: 'Enbrel',
    qualifying: {
      diagnoses: [{ code: 'L40.0' }],
      visitNotes: [
        visitNote('Plaque psoriasis despite clobetasol and narrowband UVB. TB test (PPD) negative.'),
      ],
    },
    cites: [
      ['psoriasis', 'L40.0'],
      ['psoriasis_conventional_therapy', 'despite clobetasol'],
      ['tuberculosis_screening', 'TB test (PPD) negative'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'M45.9' }],
      visitNotes: [visitNote('Has not tried NSAIDs. TB test (PPD) negative.')],
    },
    failing: 'nsaid_trial',
    reason: 'No trial of an NSAID for at least 4 weeks is documented.',
  },
  {
    drug: 'Stelara',
    qualifying: {
      diagnoses: [{ description: "Crohn's disease" }],
      visitNotes: [
        visitNote(
          'Crohn disease refractory to prednisone and azathioprine. Negative QuantiFERON in January.',
        ),
      ],
    },
    cites: [
      ['crohns_adult', 'age 50 years'],
      ['crohns_disease', "Crohn's disease"],
      ['crohns_prior_therapy', 'refractory to prednisone'],
      ['tuberculosis_screening', 'Negative QuantiFERON in January'],
    ],
    nonQualifying: {
      ...bornOn('2010-11-20'),
      diagnoses: [{ description: "Crohn's disease" }],
      visitNotes: [
        visitNote(
          'Crohn disease refractory to prednisone and azathioprine. Negative QuantiFERON in January.',
        ),
      ],
    },
    failing: 'crohns_adult',
    reason: 'The patient is younger than the minimum age of 18 years.',
  },
  {
    drug: 'Dupixent',
    qualifying: {
      ...bornOn('2024-01-01'),
      diagnoses: [{ code: 'L20.9' }],
      questionnaires: [
        questionnaire([
          [
            'Which topical treatments has the patient tried?',
            'Hydrocortisone 2.5% cream for 6 weeks, then tacrolimus.',
          ],
        ]),
      ],
    },
    cites: [
      ['age_6_months_or_older', 'age 2 years'],
      ['atopic_dermatitis', 'L20.9'],
      ['topical_therapy_trial', 'Hydrocortisone 2.5% cream for 6 weeks'],
    ],
    nonQualifying: {
      ...bornOn('2025-10-20'),
      diagnoses: [{ code: 'L20.9' }],
      visitNotes: [visitNote('Failed topical corticosteroids.')],
    },
    failing: 'age_6_months_or_older',
    reason: 'The patient is younger than the minimum age of 6 months.',
  },
  {
    drug: 'Xolair',
    qualifying: {
      diagnoses: [{ code: 'J45.50' }],
      visitNotes: [
        visitNote('Severe persistent asthma on Symbicort 160/4.5 two puffs twice daily for 2 years.'),
      ],
      evidence: [
        evidence('Allergy labs', { content: { total_ige: { value: 240, unit: 'IU/mL' } } }, '2026-01-10'),
      ],
    },
    cites: [
      ['moderate_to_severe_asthma', 'J45.50'],
      ['ige_at_least_30', 'total ige: 240 IU/mL'],
      ['inhaled_corticosteroid_trial', 'Symbicort 160/4.5 two puffs twice daily for 2 years'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'J45.50' }],
      visitNotes: [
        visitNote('Severe persistent asthma on Symbicort 160/4.5 two puffs twice daily for 2 years.'),
      ],
      evidence: [
        evidence('Allergy labs', { content: { total_ige: { value: 18, unit: 'IU/mL' } } }, '2026-01-10'),
      ],
    },
    failing: 'ige_at_least_30',
    reason: 'Total IgE 18 IU/mL is below the required 30 IU/mL.',
  },
  {
    drug: 'Nucala',
    qualifying: {
      diagnoses: [{ code: 'J45.51' }],
      visitNotes: [
        visitNote(
          'Eosinophils 420 cells/uL. Two exacerbations requiring oral steroid bursts in the past year. ' +
            'Uncontrolled on fluticasone/salmeterol for 9 months.',
          '2026-02-15',
        ),
      ],
    },
    cites: [
      ['severe_asthma', 'J45.51'],
      ['eosinophils_recent_at_least_150', 'Eosinophils 420 cells/uL'],
      ['ics_laba_trial', 'Uncontrolled on fluticasone/salmeterol for 9 months'],
      ['exacerbation_history', 'Two exacerbations requiring oral steroid bursts in the past year'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'J45.51' }],
      visitNotes: [
        visitNote(
          'Eosinophils 90 cells/uL. Two exacerbations requiring oral steroid bursts in the past year. ' +
            'Uncontrolled on fluticasone/salmeterol for 9 months.',
          '2026-02-15',
        ),
      ],
    },
    failing: 'eosinophils_at_least_300',
    reason:
      'Blood eosinophil count 90 cells/µL is below the required 150 cells/µL in the last 6 weeks (or 300 cells/µL in the last 12 months).',
  },
  {
    drug: 'Fasenra',
    qualifying: {
      ...bornOn('2008-04-02'),
      diagnoses: [{ description: 'severe persistent asthma' }],
      evidence: [
        evidence(
          'CBC with differential',
          { text: 'test,value,unit\nEosinophils,0.45,x10^9/L' },
          '2026-01-05',
        ),
      ],
      questionnaires: [
        questionnaire([
          ['Has the patient used an ICS/LABA for at least 3 months?', 'Yes'],
          ['Number of exacerbations in the last 12 months', '3'],
        ]),
      ],
    },
    cites: [
      ['severe_asthma', 'severe persistent asthma'],
      ['eosinophils_at_least_300', 'Eosinophils,0.45,x10^9/L'],
      ['ics_laba_trial', 'Yes'],
      ['exacerbation_history', 'Number of exacerbations in the last 12 months 3'],
    ],
    nonQualifying: {
      ...bornOn('2015-06-30'),
      diagnoses: [{ description: 'severe persistent asthma' }],
      evidence: [
        evidence(
          'CBC with differential',
          { text: 'test,value,unit\nEosinophils,0.45,x10^9/L' },
          '2026-01-05',
        ),
      ],
      questionnaires: [
        questionnaire([
          ['Has the patient used an ICS/LABA for at least 3 months?', 'Yes'],
          ['Number of exacerbations in the last 12 months', '3'],
        ]),
      ],
    },
    failing: 'age_12_or_older',
    reason: 'The patient is younger than the minimum age of 12 years.',
  },
  {
    drug: 'Repatha',
    qualifying: {
      diagnoses: [{ code: 'I25.10' }],
      visitNotes: [visitNote('LDL 142 mg/dL on atorvastatin 80 mg daily since 2024.')],
    },
    cites: [
      ['lipid_or_ascvd_diagnosis', 'I25.10'],
      ['ldl_at_least_70', 'LDL 142 mg/dL'],
      ['statin_trial', 'atorvastatin 80 mg daily since 2024'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'I25.10' }],
      visitNotes: [visitNote('LDL 142 mg/dL. Statin: never tried.')],
    },
    failing: 'statin_trial',
    reason: 'No trial of a maximally tolerated statin for at least 8 weeks is documented.',
  },
  {
    drug: 'Praluent',
    qualifying: {
      diagnoses: [{ description: 'familial hypercholesterolemia' }],
      visitNotes: [
        visitNote('Statin intolerance: myalgia on rosuvastatin. Ezetimibe 10 mg daily for 3 months.'),
      ],
      evidence: [
        evidence('Lipid panel', { content: { ldl_c: { value: 3.4, unit: 'mmol/L' } } }, '2026-01-20'),
      ],
    },
    cites: [
      ['lipid_or_ascvd_diagnosis', 'familial hypercholesterolemia'],
      ['ldl_at_least_70', 'ldl c: 3.4 mmol/L'],
      ['statin_trial', 'Statin intolerance'],
      ['ezetimibe_trial', 'Ezetimibe 10 mg daily for 3 months'],
    ],
    nonQualifying: {
      diagnoses: [{ description: 'familial hypercholesterolemia' }],
      visitNotes: [
        visitNote('LDL 58 mg/dL. Statin intolerance: myalgia on rosuvastatin. Ezetimibe for 3 months.'),
      ],
    },
    failing: 'ldl_at_least_70',
    reason: 'LDL-C 58 mg/dL is below the required 70 mg/dL.',
  },
];

describe('the clinical criteria catalog', () => {
  it('defines at least 12 drugs, exactly those CLINICAL_CATALOG_DRUGS names', () => {
    expect(CLINICAL_CATALOG_DRUGS.length).toBeGreaterThanOrEqual(12);
    expect(catalog.drugs.map((drug) => drug.name)).toEqual([...CLINICAL_CATALOG_DRUGS]);
  });

  it('spans several therapeutic areas', () => {
    const areas = new Set(catalog.drugs.map((drug) => drug.therapeutic_area.split(':')[0]));
    expect(areas.size).toBeGreaterThanOrEqual(6);
  });

  it('uses every kind of criterion', () => {
    const kinds = new Set(
      catalog.drugs.flatMap((drug) => leaves(drug.criteria).map((leaf) => leaf.check.kind)),
    );
    expect(kinds).toEqual(new Set(['age', 'diagnosis', 'measurement', 'prior_therapy', 'documentation']));
  });

  it('describes every code and family its diagnosis criteria use', () => {
    const prefixes = catalog.drugs.flatMap((drug) =>
      leaves(drug.criteria).flatMap((leaf) =>
        leaf.check.kind === 'diagnosis' ? leaf.check.code_prefixes : [],
      ),
    );
    for (const prefix of prefixes)
      expect([prefix, icd10Subset().describe(prefix)]).toEqual([prefix, expect.any(String)]);
  });

  it('gives every criterion a readable description', () => {
    for (const leaf of catalog.drugs.flatMap((drug) => leaves(drug.criteria))) {
      expect(leaf.description).toMatch(/^[A-Z].{10,}$/);
    }
  });

  it('refuses a catalog whose criterion names a code the ICD-10-CM subset lacks', () => {
    const ozempic = catalog.drugs[0] as ClinicalCatalogDrug;
    const broken: ClinicalCatalogDrug = {
      ...ozempic,
      criteria: {
        all_of: [
          {
            id: 'odd',
            description: 'Odd code',
            check: { kind: 'diagnosis', label: 'odd', code_prefixes: ['Q99'] },
          },
        ],
      },
    };
    expect(() => new ClinicalCatalog([broken, ...catalog.drugs.slice(1)], icd10Subset())).toThrow(
      'Ozempic odd: uses Q99, which the ICD-10-CM subset lacks',
    );
  });

  it('refuses a measurement threshold written in another unit than the canonical one', () => {
    const praluent = catalog.drugs.find((drug) => drug.name === 'Praluent') as ClinicalCatalogDrug;
    const broken: ClinicalCatalogDrug = {
      ...praluent,
      criteria: {
        all_of: [
          {
            id: 'ldl',
            description: 'LDL in mmol/L',
            check: { kind: 'measurement', name: 'ldl', comparator: '>=', threshold: 1.8, unit: 'mmol/L' },
          },
        ],
      },
    };
    const drugs = catalog.drugs.map((drug) => (drug.name === 'Praluent' ? broken : drug));
    expect(() => new ClinicalCatalog(drugs, icd10Subset())).toThrow('states ldl in mmol/L, not mg/dL');
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

  it('reports whether the drug needs prior authorization', () => {
    const result = evaluateOne(drugCase.drug, drugCase.qualifying);
    expect(result.prior_authorization_required).toBe(
      catalog.drugs.find((drug) => drug.name === drugCase.drug)?.prior_authorization_required,
    );
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

  it('answers unknown, without criteria or reasons, for a drug outside the catalog', () => {
    expect(evaluateOne('Lisinopril 10 mg', {})).toEqual({
      drug: 'Lisinopril 10 mg',
      catalog_drug: null,
      status: 'unknown',
      criteria: [],
      unqualified_reasons: [],
      prior_authorization_required: null,
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

describe('alternative paths', () => {
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
    );
    expect(outcome.results.map((result) => result.catalog_drug)).toEqual(['Repatha', null, 'Ozempic']);
  });

  it('is the same for the same record, evaluated again', () => {
    const record = syntheticRecord({
      drugs: CLINICAL_CATALOG_DRUGS.map((name) => ({ name, quantity: 1 })),
      ...DRUG_CASES[0]?.qualifying,
      visitNotes: DRUG_CASES.flatMap((drugCase) => drugCase.qualifying.visitNotes ?? []),
    });
    const first = evaluateClinicalEligibility(record);
    expect(evaluateClinicalEligibility(structuredClone(record))).toEqual(first);
  });

  it('evaluates five drugs against twenty evidence items in a few milliseconds', () => {
    const record = syntheticRecord({
      drugs: ['Ozempic', 'Wegovy', 'Humira', 'Nucala', 'Repatha'].map((name) => ({ name, quantity: 1 })),
      diagnoses: [{ code: 'E11.9' }, { description: 'hypertension' }, { code: 'J45.50' }],
      visitNotes: [
        visitNote('BMI 31.2. A1c 8.1%. On metformin for 8 months. LDL 130 mg/dL on atorvastatin since 2023.'),
      ],
      evidence: Array.from({ length: 20 }, (_, index) =>
        evidence(`Lab results ${index}`, {
          content: {
            labs: [{ name: 'A1c', value: 7 + index / 10, unit: '%' }],
            notes: 'Eosinophils 350 cells/uL.',
          },
        }),
      ),
    });
    evaluateClinicalEligibility(record);
    const runs = 20;
    const started = process.hrtime.bigint();
    for (let run = 0; run < runs; run += 1) evaluateClinicalEligibility(record);
    const averageMs = Number(process.hrtime.bigint() - started) / 1e6 / runs;
    expect(averageMs).toBeLessThan(20);
  });
});
