import type {
  EnrollmentFacts,
  ProgramDecision,
  ProgramEligibilityRules,
  SupportProgram,
} from '../../domain/programs/program-model';
import {
  ENROLLMENT_FACT_FIELDS,
  evaluateProgramEligibility,
  INCOME_EVIDENCE_CONTENT_FIELDS,
  INCOME_EVIDENCE_TYPE,
  percentOfPovertyLevel,
  povertyGuidelineCents,
  programCoversDrug,
  type ProgramRuleName,
} from '../../domain/programs/program-rules';
import { shippedSupportPrograms } from '../../infrastructure/catalogs/shipped-catalogs';

const AS_OF = '2026-03-01';

/** A synthetic adult with commercial insurance in Texas, household of 3 at about 169 % FPL. */
function patientFacts(overrides: Partial<EnrollmentFacts> = {}): EnrollmentFacts {
  return {
    drug_name: 'Ozempic 1 mg pen',
    date_of_birth: '1975-06-15',
    asOf: AS_OF,
    country: 'US',
    state_province: 'TX',
    insurance_type: 'commercial',
    household_size: 3,
    annual_household_income_cents: 4_500_000,
    ...overrides,
  };
}

function programWith(
  eligibility: ProgramEligibilityRules,
  drugs = ['Ozempic', 'semaglutide'],
): SupportProgram {
  return {
    id: 'prog_0000000000000000000000test',
    object: 'support_program',
    name: 'Synthetic Test Program',
    manufacturer: 'Test Pharma',
    type: 'copay_card',
    drugs,
    description: 'A program made up for tests.',
    benefits: 'None.',
    eligibility,
    patient_authorization_required: null,
    confirmation: { kind: 'copay_card', bin: '999999', pcn: 'TEST', group: 'TEST0001', valid_months: 12 },
  };
}

function evaluate(
  eligibility: ProgramEligibilityRules,
  overrides: Partial<EnrollmentFacts> = {},
): ProgramDecision {
  return evaluateProgramEligibility(programWith(eligibility), patientFacts(overrides));
}

function ruleNames(decision: ProgramDecision): ProgramRuleName[] {
  return decision.reasons.map((reason) => reason.rule as ProgramRuleName);
}

function missingFields(decision: ProgramDecision): string[] {
  return decision.missing_information.map((missing) => missing.field);
}

function expectEligible(decision: ProgramDecision): void {
  expect(decision).toEqual({ decision: 'eligible', reasons: [], missing_information: [] });
}

function expectOnlyFailure(decision: ProgramDecision, rule: ProgramRuleName): void {
  expect(decision.decision).toBe('ineligible');
  expect(ruleNames(decision)).toEqual([rule]);
  expect(decision.missing_information).toEqual([]);
}

function expectOnlyMissing(decision: ProgramDecision, field: string): void {
  expect(decision.decision).toBe('needs_information');
  expect(decision.reasons).toEqual([]);
  expect(missingFields(decision)).toEqual([field]);
}

function requiredProgram(id: string): SupportProgram {
  const program = shippedSupportPrograms().find(id);
  if (!program) throw new Error(`No catalog program ${id}`);
  return program;
}

describe('the prescription rule', () => {
  it('accepts a prescription naming a listed brand with its strength and form', () => {
    expectEligible(evaluate({}, { drug_name: 'OZEMPIC 2 mg/1.5 mL pen' }));
  });

  it('accepts a prescription naming a listed generic', () => {
    expectEligible(evaluate({}, { drug_name: 'semaglutide 0.5 mg' }));
  });

  it('refuses a prescription for a drug the program does not list', () => {
    const decision = evaluate({}, { drug_name: 'Jardiance 10 mg' });
    expectOnlyFailure(decision, 'drug_not_covered_by_program');
    expect(decision.reasons[0]?.description).toContain('Ozempic');
  });

  it('does not take a biosimilar for the reference product whose generic name it extends', () => {
    const program = programWith({}, ['Humira', 'adalimumab']);
    expect(programCoversDrug(program, 'adalimumab-atto 40 mg/0.8 mL')).toBe(false);
    expect(programCoversDrug(program, 'adalimumab 40 mg/0.8 mL')).toBe(true);
  });

  it('asks for the drug name when the prescription has none', () => {
    expectOnlyMissing(evaluate({}, { drug_name: undefined }), ENROLLMENT_FACT_FIELDS.drugName);
  });

  it('asks for the drug name when it is blank', () => {
    expectOnlyMissing(evaluate({}, { drug_name: '  ' }), 'prescription.drug_name');
  });
});

describe('the excluded insurance types rule', () => {
  const excludesGovernmentPlans: ProgramEligibilityRules = {
    insurance_types_excluded: ['medicare', 'medicare_advantage', 'medicaid', 'tricare'],
  };

  it('accepts a plan type that is not excluded', () => {
    expectEligible(evaluate(excludesGovernmentPlans, { insurance_type: 'commercial' }));
  });

  it('refuses an excluded plan type and names it', () => {
    const decision = evaluate(excludesGovernmentPlans, { insurance_type: 'medicare_advantage' });
    expectOnlyFailure(decision, 'insurance_type_excluded');
    expect(decision.reasons[0]?.description).toContain('the patient is covered by Medicare Advantage');
  });

  it('accepts a patient who declared no insurance', () => {
    expectEligible(evaluate(excludesGovernmentPlans, { insurance_type: null }));
  });

  it('asks for the insurance details when the plan type is unknown', () => {
    expectOnlyMissing(
      evaluate(excludesGovernmentPlans, { insurance_type: undefined }),
      'patient.insurance_details',
    );
  });
});

describe('the required insurance types rule', () => {
  const commercialOnly: ProgramEligibilityRules = { insurance_types_required: ['commercial'] };

  it('accepts a required plan type', () => {
    expectEligible(evaluate(commercialOnly, { insurance_type: 'commercial' }));
  });

  it('refuses another plan type', () => {
    const decision = evaluate(commercialOnly, { insurance_type: 'medicaid' });
    expectOnlyFailure(decision, 'insurance_type_required');
    expect(decision.reasons[0]?.description).toBe(
      'The program requires commercial insurance; the patient is covered by Medicaid.',
    );
  });

  it('refuses a patient who declared no insurance', () => {
    const decision = evaluate(commercialOnly, { insurance_type: null });
    expectOnlyFailure(decision, 'insurance_type_required');
    expect(decision.reasons[0]?.description).toContain('the patient has no insurance');
  });

  it('asks for the insurance details when the plan type is unknown', () => {
    expectOnlyMissing(evaluate(commercialOnly, { insurance_type: undefined }), 'patient.insurance_details');
  });
});

describe('the insurance requirement', () => {
  it('accepts an insured patient when insurance is required', () => {
    expectEligible(evaluate({ requires_insurance: true }, { insurance_type: 'other' }));
  });

  it('refuses an uninsured patient when insurance is required', () => {
    expectOnlyFailure(evaluate({ requires_insurance: true }, { insurance_type: null }), 'insurance_required');
  });

  it('accepts an uninsured patient when the program is for the uninsured', () => {
    expectEligible(evaluate({ requires_insurance: false }, { insurance_type: null }));
  });

  it('refuses an insured patient when the program is for the uninsured', () => {
    const decision = evaluate({ requires_insurance: false }, { insurance_type: 'medicare' });
    expectOnlyFailure(decision, 'insurance_not_allowed');
    expect(decision.reasons[0]?.description).toContain('covered by Medicare');
  });

  it('asks for the insurance details when insurance is unknown, whichever way the program leans', () => {
    expectOnlyMissing(
      evaluate({ requires_insurance: true }, { insurance_type: undefined }),
      'patient.insurance_details',
    );
    expectOnlyMissing(
      evaluate({ requires_insurance: false }, { insurance_type: undefined }),
      'patient.insurance_details',
    );
  });

  it('asks for the insurance details once when several insurance rules need them', () => {
    const decision = evaluate(
      {
        insurance_types_excluded: ['medicare'],
        insurance_types_required: ['commercial'],
        requires_insurance: true,
      },
      { insurance_type: undefined },
    );
    expectOnlyMissing(decision, 'patient.insurance_details');
  });
});

describe('the age rules', () => {
  it('accepts a patient above the minimum age', () => {
    expectEligible(evaluate({ min_age: 18 }, { date_of_birth: '1990-01-01' }));
  });

  it('refuses a patient below the minimum age without stating the age', () => {
    const decision = evaluate({ min_age: 18 }, { date_of_birth: '2012-07-04' });
    expectOnlyFailure(decision, 'min_age');
    expect(decision.reasons[0]?.description).toBe('The program is for patients aged 18 or older.');
  });

  it('counts an 18th birthday on the evaluation date as 18 years old', () => {
    expectEligible(evaluate({ min_age: 18 }, { date_of_birth: '2008-03-01', asOf: '2026-03-01' }));
  });

  it('counts a patient whose 18th birthday is the day after the evaluation date as 17', () => {
    expectOnlyFailure(
      evaluate({ min_age: 18 }, { date_of_birth: '2008-03-02', asOf: '2026-03-01' }),
      'min_age',
    );
  });

  it('accepts a patient at the maximum age', () => {
    expectEligible(
      evaluate({ min_age: 2, max_age: 17 }, { date_of_birth: '2008-03-02', asOf: '2026-03-01' }),
    );
  });

  it('refuses a patient whose birthday on the evaluation date takes them past the maximum age', () => {
    const decision = evaluate({ max_age: 17 }, { date_of_birth: '2008-03-01', asOf: '2026-03-01' });
    expectOnlyFailure(decision, 'max_age');
    expect(decision.reasons[0]?.description).toBe('The program is for patients aged 17 or younger.');
  });

  it('lets a 29 February birthday fall on 1 March in years without one', () => {
    expectOnlyFailure(
      evaluate({ min_age: 18 }, { date_of_birth: '2008-02-29', asOf: '2026-02-28' }),
      'min_age',
    );
    expectEligible(evaluate({ min_age: 18 }, { date_of_birth: '2008-02-29', asOf: '2026-03-01' }));
  });

  it('computes age from the facts, not from the clock', () => {
    const facts = patientFacts({ date_of_birth: '2008-03-01', asOf: '2026-03-01' });
    const program = programWith({ min_age: 18 });
    jest.useFakeTimers({ now: new Date('2026-02-01T00:00:00Z') });
    try {
      expect(evaluateProgramEligibility(program, facts).decision).toBe('eligible');
    } finally {
      jest.useRealTimers();
    }
  });

  it('asks for the date of birth when it is missing', () => {
    expectOnlyMissing(evaluate({ min_age: 18 }, { date_of_birth: undefined }), 'patient.date_of_birth');
  });

  it('asks for the date of birth again when it is not a calendar date', () => {
    expectOnlyMissing(evaluate({ max_age: 17 }, { date_of_birth: '2010-02-30' }), 'patient.date_of_birth');
  });

  it('asks for the date of birth again when it is after the evaluation date', () => {
    expectOnlyMissing(evaluate({ min_age: 2 }, { date_of_birth: '2026-03-02' }), 'patient.date_of_birth');
  });

  it('does not need a date of birth when the program has no age limit', () => {
    expectEligible(evaluate({}, { date_of_birth: undefined }));
  });

  it('refuses facts whose evaluation date is not a calendar date', () => {
    expect(() => evaluate({}, { asOf: '2026-13-01' })).toThrow(RangeError);
  });
});

describe('the residency rule', () => {
  const statesAndPuertoRico: ProgramEligibilityRules = { residency_countries: ['US', 'PR'] };

  it('accepts a resident of a listed country', () => {
    expectEligible(evaluate(statesAndPuertoRico, { country: 'US' }));
  });

  it('reads the country however it is written', () => {
    expectEligible(evaluate(statesAndPuertoRico, { country: 'United States' }));
    expectEligible(evaluate(statesAndPuertoRico, { country: 'u.s.a.' }));
  });

  it('refuses a resident of another country', () => {
    const decision = evaluate(statesAndPuertoRico, { country: 'CA', state_province: 'ON' });
    expectOnlyFailure(decision, 'residency');
    expect(decision.reasons[0]?.description).toBe('The program is open only to residents of US or PR.');
  });

  it('takes a territory written as a US state for the territory', () => {
    expectOnlyFailure(
      evaluate({ residency_countries: ['US'] }, { country: 'US', state_province: 'Puerto Rico' }),
      'residency',
    );
    expectEligible(evaluate(statesAndPuertoRico, { country: 'US', state_province: 'PR' }));
  });

  it('asks for the country when the address has none', () => {
    expectOnlyMissing(evaluate(statesAndPuertoRico, { country: undefined }), 'patient.address.country');
  });
});

describe('the income rule', () => {
  const upTo400Percent: ProgramEligibilityRules = { max_income_percent_fpl: 400 };

  it('accepts a household income exactly at the limit', () => {
    expectEligible(evaluate(upTo400Percent, { household_size: 1, annual_household_income_cents: 6_260_000 }));
  });

  it('refuses a household income one cent above the limit, showing the percent rounded up', () => {
    const decision = evaluate(upTo400Percent, {
      household_size: 1,
      annual_household_income_cents: 6_260_001,
    });
    expectOnlyFailure(decision, 'income_above_limit');
    expect(decision.reasons[0]?.description).toBe(
      "Household income is 400.1% of the federal poverty level, above the program's limit of 400%.",
    );
  });

  it('measures Alaska and Hawaii households against their own guidelines', () => {
    // $90,000 for two people is 341 % of the Alaska guideline, 370 % of Hawaii's and 426 % elsewhere.
    const twoPeopleEarning90000 = { household_size: 2, annual_household_income_cents: 9_000_000 };
    expectEligible(evaluate(upTo400Percent, { ...twoPeopleEarning90000, state_province: 'AK' }));
    expectEligible(evaluate(upTo400Percent, { ...twoPeopleEarning90000, state_province: 'Hawaii' }));
    expectOnlyFailure(
      evaluate(upTo400Percent, { ...twoPeopleEarning90000, state_province: 'TX' }),
      'income_above_limit',
    );
  });

  it('asks for income evidence when the household size is missing, naming the content fields', () => {
    const decision = evaluate(upTo400Percent, { household_size: undefined });
    expectOnlyMissing(decision, 'evidence[type=income_verification]');
    const reason = decision.missing_information[0]?.reason ?? '';
    expect(reason).toContain(INCOME_EVIDENCE_TYPE);
    expect(reason).toContain(INCOME_EVIDENCE_CONTENT_FIELDS.householdSize);
    expect(reason).toContain(INCOME_EVIDENCE_CONTENT_FIELDS.annualHouseholdIncomeCents);
  });

  it('asks for income evidence when the income is missing', () => {
    expectOnlyMissing(
      evaluate(upTo400Percent, { annual_household_income_cents: undefined }),
      ENROLLMENT_FACT_FIELDS.incomeEvidence,
    );
  });

  it('asks for income evidence once when both income facts are missing', () => {
    expectOnlyMissing(
      evaluate(upTo400Percent, { household_size: undefined, annual_household_income_cents: undefined }),
      ENROLLMENT_FACT_FIELDS.incomeEvidence,
    );
  });

  it('asks for income evidence again when the household size is not a whole number of people', () => {
    expectOnlyMissing(evaluate(upTo400Percent, { household_size: 0 }), ENROLLMENT_FACT_FIELDS.incomeEvidence);
    expectOnlyMissing(
      evaluate(upTo400Percent, { household_size: 2.5 }),
      ENROLLMENT_FACT_FIELDS.incomeEvidence,
    );
  });

  it('does not need income facts when the program has no income limit', () => {
    expectEligible(evaluate({}, { household_size: undefined, annual_household_income_cents: undefined }));
  });
});

describe('the federal poverty level', () => {
  it('is $15,650 for one person in the contiguous states', () => {
    expect(povertyGuidelineCents(1)).toBe(1_565_000);
    expect(percentOfPovertyLevel(1, 1_565_000)).toBe(100);
  });

  it('matches the published table for households of two to eight', () => {
    const published = [2_115_000, 2_665_000, 3_215_000, 3_765_000, 4_315_000, 4_865_000, 5_415_000];
    expect([2, 3, 4, 5, 6, 7, 8].map((size) => povertyGuidelineCents(size))).toEqual(published);
  });

  it('adds $5,500 for each person beyond eight', () => {
    expect(povertyGuidelineCents(10)).toBe(6_515_000);
    expect(percentOfPovertyLevel(10, 13_030_000, 'TX')).toBe(200);
  });

  it('uses the Alaska guideline however Alaska is written', () => {
    expect(povertyGuidelineCents(1, 'AK')).toBe(1_955_000);
    expect(povertyGuidelineCents(4, 'alaska')).toBe(4_019_000);
    expect(povertyGuidelineCents(9, 'Alaska')).toBe(1_955_000 + 8 * 688_000);
  });

  it('uses the Hawaii guideline however Hawaii is written', () => {
    expect(povertyGuidelineCents(1, 'HI')).toBe(1_799_000);
    expect(povertyGuidelineCents(4, 'Hawaii')).toBe(3_698_000);
    expect(percentOfPovertyLevel(4, 7_396_000, 'hi')).toBe(200);
  });

  it('uses the contiguous guideline for the District of Columbia and the territories', () => {
    expect(povertyGuidelineCents(3, 'DC')).toBe(2_665_000);
    expect(povertyGuidelineCents(3, 'PR')).toBe(2_665_000);
  });

  it('refuses household sizes that are not whole numbers of people and negative incomes', () => {
    expect(() => percentOfPovertyLevel(0, 1_000_000)).toThrow(RangeError);
    expect(() => percentOfPovertyLevel(1.5, 1_000_000)).toThrow(RangeError);
    expect(() => percentOfPovertyLevel(2, -1)).toThrow(RangeError);
  });
});

describe('several rules together', () => {
  const everyRule: ProgramEligibilityRules = {
    insurance_types_excluded: ['medicare', 'medicare_advantage', 'medicaid', 'tricare'],
    insurance_types_required: ['commercial'],
    min_age: 18,
    residency_countries: ['US'],
    max_income_percent_fpl: 400,
  };

  it('accepts a patient who meets every rule', () => {
    expectEligible(evaluate(everyRule));
  });

  it('reports every failed rule, not only the first', () => {
    const decision = evaluate(everyRule, {
      drug_name: 'Eliquis 5 mg',
      insurance_type: 'medicaid',
      date_of_birth: '2015-05-05',
      country: 'MX',
      household_size: 1,
      annual_household_income_cents: 10_000_000,
    });
    expect(decision.decision).toBe('ineligible');
    expect(ruleNames(decision)).toEqual([
      'drug_not_covered_by_program',
      'insurance_type_excluded',
      'insurance_type_required',
      'min_age',
      'residency',
      'income_above_limit',
    ]);
  });

  it('reports every missing fact, in the order of the rules', () => {
    const decision = evaluateProgramEligibility(programWith(everyRule), { asOf: AS_OF });
    expect(decision.decision).toBe('needs_information');
    expect(missingFields(decision)).toEqual([
      'prescription.drug_name',
      'patient.insurance_details',
      'patient.date_of_birth',
      'patient.address.country',
      'evidence[type=income_verification]',
    ]);
  });

  it('is ineligible when a rule fails while other facts are missing, and still lists what is missing', () => {
    const decision = evaluate(everyRule, { insurance_type: 'tricare', date_of_birth: undefined });
    expect(decision.decision).toBe('ineligible');
    expect(ruleNames(decision)).toEqual(['insurance_type_excluded', 'insurance_type_required']);
    expect(missingFields(decision)).toEqual(['patient.date_of_birth']);
  });

  it('keeps patient identifiers out of the reasons', () => {
    const decision = evaluate(everyRule, {
      drug_name: 'Zyxorbin 7 mg',
      insurance_type: 'medicare',
      date_of_birth: '2011-11-23',
      country: 'Canada',
      state_province: 'Quebec',
      household_size: 6,
      annual_household_income_cents: 98_765_432,
    });
    const text = JSON.stringify(decision);
    for (const identifier of ['Zyxorbin', '2011', '11-23', 'Canada', 'Quebec', '987654', '98765432']) {
      expect(text).not.toContain(identifier);
    }
  });

  it('checks only the prescription when the program has no other rules', () => {
    expectEligible(evaluateProgramEligibility(programWith({}), { drug_name: 'Ozempic', asOf: AS_OF }));
  });
});

describe('catalog programs', () => {
  const ozempicSavingsCard = requiredProgram('prog_01jnzn5t37ydrsw602nch4aqg1');
  const novoCarePatientAssistance = requiredProgram('prog_01jnpgt3h2689kf6nsk1d131br');
  const amgenSafetyNet = requiredProgram('prog_01jn1bn9apg8bv377sx8ac63dn');

  it('lets the Ozempic Savings Card refuse a Medicare patient for both its exclusion and its commercial requirement', () => {
    const decision = evaluateProgramEligibility(
      ozempicSavingsCard,
      patientFacts({ insurance_type: 'medicare' }),
    );
    expect(ruleNames(decision)).toEqual(['insurance_type_excluded', 'insurance_type_required']);
  });

  it('lets a Medicare patient with limited income qualify for NovoCare patient assistance', () => {
    const facts = patientFacts({
      insurance_type: 'medicare',
      household_size: 2,
      annual_household_income_cents: 3_000_000,
    });
    expect(evaluateProgramEligibility(novoCarePatientAssistance, facts).decision).toBe('eligible');
  });

  it('asks an uninsured Amgen Safety Net applicant for income evidence', () => {
    const facts = patientFacts({
      drug_name: 'Enbrel 50 mg/mL SureClick',
      insurance_type: null,
      household_size: undefined,
      annual_household_income_cents: undefined,
    });
    expectOnlyMissing(
      evaluateProgramEligibility(amgenSafetyNet, facts),
      'evidence[type=income_verification]',
    );
  });
});
