import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import type { CLINICAL_CATALOG_DRUGS } from '../../domain/clinical/criteria';
import { bornOn, evidence, questionnaire, visitNote } from './synthetic-records';

/**
 * For every drug of the criteria catalog, a synthetic record that qualifies and one that does not,
 * with what must decide each. The engine's unit tests and the HTTP tests against the real server
 * both run them.
 */
export interface DrugCase {
  drug: (typeof CLINICAL_CATALOG_DRUGS)[number];
  qualifying: Partial<ClinicalRecord>;
  /** Criteria that decided the qualification, each with words its evidence must cite. */
  cites: Array<[id: string, excerpt: string]>;
  nonQualifying: Partial<ClinicalRecord>;
  failing: string;
  reason: string;
}

export const DRUG_CASES: DrugCase[] = [
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
    drug: 'Victoza',
    qualifying: {
      diagnoses: [{ code: 'E11.9' }],
      visitNotes: [visitNote('A1c 7.9 %. Metformin not tolerated (GI upset).')],
    },
    cites: [
      ['a1c_at_least_7', 'A1c 7.9 %'],
      ['metformin_trial', 'Metformin not tolerated'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'E11.9' }],
      visitNotes: [visitNote('A1c 6.8 %. Metformin not tolerated (GI upset).')],
    },
    failing: 'a1c_at_least_7',
    reason: 'A1c 6.8 % is below the required 7 %.',
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
      diagnoses: [{ code: 'E66.3' }],
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
    drug: 'Remicade',
    qualifying: {
      diagnoses: [{ code: 'K50.90' }],
      visitNotes: [
        visitNote(
          'Crohn disease flaring despite prednisone and azathioprine. QuantiFERON negative on 2026-01-05.',
        ),
      ],
    },
    cites: [
      ['crohns_disease', 'K50.90'],
      ['crohns_conventional_therapy', 'despite prednisone'],
      ['tuberculosis_screening', 'QuantiFERON negative'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'K50.90' }],
      visitNotes: [visitNote('Crohn disease flaring despite prednisone and azathioprine.')],
    },
    failing: 'tuberculosis_screening',
    reason: 'No tuberculosis screening from the last 12 months is documented.',
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
    drug: 'Cosentyx',
    qualifying: {
      diagnoses: [{ code: 'M45.9' }],
      visitNotes: [
        visitNote('Inadequate response to naproxen 500 mg twice daily for 8 weeks. TB test (PPD) negative.'),
      ],
    },
    cites: [
      ['ankylosing_spondylitis', 'M45.9'],
      ['nsaid_trial', 'naproxen 500 mg twice daily for 8 weeks'],
      ['tuberculosis_screening', 'TB test (PPD) negative'],
    ],
    nonQualifying: {
      ...bornOn('2022-05-01'),
      diagnoses: [{ code: 'L40.0' }],
      visitNotes: [visitNote('Plaque psoriasis despite clobetasol. TB test (PPD) negative.')],
    },
    failing: 'psoriasis_age_6_or_older',
    reason: 'The patient is younger than the minimum age of 6 years.',
  },
  {
    drug: 'Skyrizi',
    qualifying: {
      diagnoses: [{ code: 'L40.0' }],
      visitNotes: [visitNote('Psoriasis despite clobetasol and methotrexate. QuantiFERON negative.')],
    },
    cites: [
      ['psoriasis', 'L40.0'],
      ['psoriasis_conventional_therapy', 'despite clobetasol'],
      ['tuberculosis_screening', 'QuantiFERON negative'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'L40.0' }],
      visitNotes: [visitNote('Has not tried topical steroids or phototherapy. QuantiFERON negative.')],
    },
    failing: 'psoriasis_conventional_therapy',
    reason: 'No trial of topical therapy, phototherapy or a conventional systemic agent is documented.',
  },
  {
    drug: 'Xeljanz',
    qualifying: {
      diagnoses: [{ code: 'M06.9' }],
      visitNotes: [
        visitNote('Inadequate response to adalimumab for 6 months. QuantiFERON negative in January.'),
      ],
    },
    cites: [
      ['rheumatoid_arthritis', 'M06.9'],
      ['tnf_inhibitor_trial', 'Inadequate response to adalimumab for 6 months'],
      ['tuberculosis_screening', 'QuantiFERON negative in January'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'M06.9' }],
      visitNotes: [
        visitNote('Methotrexate for 1 year. Has not tried a TNF inhibitor. QuantiFERON negative in January.'),
      ],
    },
    failing: 'tnf_inhibitor_trial',
    reason: 'No trial of a TNF inhibitor is documented.',
  },
  {
    drug: 'Rinvoq',
    qualifying: {
      diagnoses: [{ code: 'K51.90' }],
      visitNotes: [
        visitNote('Ulcerative colitis refractory to infliximab. QuantiFERON negative on 2026-01-05.'),
      ],
    },
    cites: [
      ['ulcerative_colitis', 'K51.90'],
      ['tnf_inhibitor_trial', 'refractory to infliximab'],
      ['tuberculosis_screening', 'QuantiFERON negative'],
    ],
    nonQualifying: {
      diagnoses: [{ code: 'E11.9' }],
      visitNotes: [
        visitNote('Ulcerative colitis refractory to infliximab. QuantiFERON negative on 2026-01-05.'),
      ],
    },
    failing: 'ulcerative_colitis',
    reason:
      'No diagnosis of rheumatoid arthritis (M05.*, M06.*), psoriatic arthritis (L40.5*), ulcerative colitis (K51.*) or ankylosing spondylitis (M45.*) was submitted.',
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
