import { coverageFromFormulary, FormularyEntry } from '../../infrastructure/formularies/formulary-entry';

const ENTRY: FormularyEntry = {
  row: 2,
  plan: null,
  ndc: '00169413212',
  drug_name: 'Ozempic',
  coverage: 'covered',
  tier: 3,
  prior_authorization_required: true,
  step_therapy_required: true,
  quantity_limit: 4,
  quantity_limit_period_days: 28,
  copay: { amount_cents: 4500, supply_duration_days: 28 },
  coinsurance_percent: null,
  benefit_type: 'pharmacy',
  hcpcs_code: null,
};

describe("a drug's result from a formulary row", () => {
  it('states coverage, PA, step therapy, quantity limit and copay as the row has them', () => {
    expect(coverageFromFormulary({ name: 'Ozempic 1 mg', quantity: 1 }, ENTRY)).toEqual({
      drug: 'Ozempic 1 mg',
      ndc: '00169413212',
      coverage: 'covered',
      coverage_detail_code: 'prior_authorization_required',
      unknown_reason: null,
      benefit_type: 'pharmacy',
      hcpcs_code: null,
      tier: 3,
      prior_authorization_required: 'yes',
      step_therapy_required: true,
      quantity_limit: 4,
      quantity_limit_period_days: 28,
      copay: { amount_cents: 4500, supply_duration_days: 28 },
      copay_options: [{ amount_cents: 4500, supply_duration_days: 28 }],
      coinsurance_percent: null,
      determination_details: { is_on_formulary: true, is_explicit_plan_exclusion: false },
      has_active_prior_auth: false,
      source: 'formulary',
    });
  });

  it('says step therapy, then plain coverage, when no PA is required', () => {
    const request = { ndc: '00169413212', quantity: 1 };
    const noPa = { ...ENTRY, prior_authorization_required: false };
    expect(coverageFromFormulary(request, noPa).coverage_detail_code).toBe('step_therapy_required');
    expect(
      coverageFromFormulary(request, { ...noPa, step_therapy_required: false }).coverage_detail_code,
    ).toBe('covered');
  });

  it('marks a medical-benefit drug with its HCPCS code and coinsurance, without a copay', () => {
    const infusion = {
      ...ENTRY,
      benefit_type: 'medical' as const,
      hcpcs_code: 'J1745',
      copay: null,
      coinsurance_percent: 20,
    };
    expect(coverageFromFormulary({ name: 'Remicade', quantity: 1 }, infusion)).toMatchObject({
      benefit_type: 'medical',
      hcpcs_code: 'J1745',
      coinsurance_percent: 20,
      copay: null,
      copay_options: [],
    });
  });

  it('reads a not_covered row as an explicit plan exclusion, PA not applicable', () => {
    const excluded = { ...ENTRY, coverage: 'not_covered' as const };
    expect(coverageFromFormulary({ name: 'Ozempic', quantity: 1 }, excluded)).toMatchObject({
      coverage: 'not_covered',
      coverage_detail_code: 'plan_exclusion',
      prior_authorization_required: 'not_applicable',
      tier: null,
      copay: null,
      determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: true },
    });
  });

  it("reads a drug the formulary does not list as not on formulary, with the request's NDC", () => {
    expect(coverageFromFormulary({ ndc: '0169-4132-12', quantity: 1 }, undefined)).toMatchObject({
      drug: '0169-4132-12',
      ndc: '00169413212',
      coverage: 'not_covered',
      coverage_detail_code: 'not_on_formulary',
      source: 'formulary',
      determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: false },
    });
  });
});
