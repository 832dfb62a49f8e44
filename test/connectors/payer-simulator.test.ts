import type { InsuranceContent } from '../../domain/cases/case-model';
import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../../domain/clinical/criteria-evaluation';
import type {
  BenefitsCheckInput,
  CriterionAnswer,
  InsuranceEvidence,
  PriorAuthPrefillInput,
  PriorAuthSubmissionInput,
  ResolvedPlan,
} from '../../domain/payers/payer-connector';
import { NO_PLAN } from '../clinical/synthetic-records';
import {
  BV_MOCK_CASES,
  MEMBER_ID_SUFFIX_CASES,
  PayerSimulator,
} from '../../infrastructure/connectors/payer-simulator';
import { shippedPayerCatalog, shippedClinicalCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const catalog = shippedPayerCatalog();
const simulator = new PayerSimulator({ now: () => NOW });

function fromContent(content: Partial<InsuranceContent>): InsuranceEvidence {
  return { content: { payer: '', member_id: 'ZZBHH123456789', ...content }, cardTexts: [] };
}

function fromCard(...lines: string[]): InsuranceEvidence {
  return { cardTexts: [lines.join('\n')] };
}

const blueHorizon = fromContent({ payer: 'Blue Horizon Health' });
const syntheticPatient = { first_name: 'Corisande', last_name: 'Testperson', date_of_birth: '1968-05-14' };

function benefitsInput(overrides: Partial<BenefitsCheckInput> = {}): BenefitsCheckInput {
  return {
    insurance: blueHorizon,
    patient: syntheticPatient,
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    ...overrides,
  };
}

async function planFor(insurance: InsuranceEvidence): Promise<ResolvedPlan> {
  const resolution = await simulator.resolvePlan(insurance);
  if (!resolution.resolved) throw new Error(resolution.reason);
  return resolution.plan;
}

function prefillInput(overrides: Partial<PriorAuthPrefillInput> = {}): PriorAuthPrefillInput {
  return {
    plan: null,
    drug: { name: 'Ozempic 1 mg pen', quantity: 1 },
    patient: { date_of_birth: '1968-05-14', gender: 'female' },
    diagnoses: [],
    evidence: [],
    questionnaires: [],
    visitNotes: [],
    ...overrides,
  };
}

function criterion(criteria: CriterionAnswer[], id: string): CriterionAnswer {
  const found = criteria.find((answer) => answer.id === id);
  if (!found) throw new Error(`No criterion ${id} among ${criteria.map((answer) => answer.id).join(', ')}`);
  return found;
}

const note = (content: string) => ({ content, created_at: '2026-02-10T10:00:00Z' });

describe('the payer catalog', () => {
  it('lists at least 8 payers, each with a six-digit BIN, a PBM and plans with PCNs', () => {
    expect(catalog.payers.length).toBeGreaterThanOrEqual(8);
    for (const payer of catalog.payers) {
      expect(payer.bin).toMatch(/^\d{6}$/);
      expect(payer.pharmacy_benefit_manager_name).not.toBe('');
      expect(payer.plans.length).toBeGreaterThan(0);
      for (const plan of payer.plans) expect(plan.pcn).toMatch(/^[A-Z0-9]+$/);
    }
    expect(new Set(catalog.payers.map((payer) => payer.bin)).size).toBe(catalog.payers.length);
  });

  it('uses only sandbox identifiers: BINs 9999xx, and PCNs and group numbers that begin with SBX', () => {
    for (const payer of catalog.payers) {
      expect(payer.bin).toMatch(/^9999\d{2}$/);
      for (const plan of payer.plans) {
        expect(plan.pcn).toMatch(/^SBX[A-Z0-9]{1,7}$/);
        expect(plan.rx_group).toMatch(/^SBX/);
      }
    }
  });

  it('keeps medical-benefit drugs, each with its HCPCS code, off every pharmacy formulary', () => {
    const medical = catalog.drugs.filter((drug) => drug.benefit === 'medical');
    expect(medical.map((drug) => [drug.id, drug.hcpcs_code])).toContainEqual(['remicade', 'J1745']);
    for (const drug of medical) {
      expect(drug.hcpcs_code).toMatch(/^J\d{4}$/);
      for (const formulary of catalog.formularies) expect(formulary.drugs[drug.id]).toBeUndefined();
    }
  });

  it('cites a source for the Part D figures of every plan year it lists', () => {
    expect(catalog.partDParameters(2025)).toEqual({
      parameters: expect.objectContaining({
        standard_deductible_cents: 59000,
        out_of_pocket_threshold_cents: 200000,
        source: expect.stringContaining('CY 2025 Rate Announcement'),
      }),
      assumed: false,
    });
    expect(catalog.partDParameters(2026)).toEqual({
      parameters: expect.objectContaining({
        standard_deductible_cents: 61500,
        out_of_pocket_threshold_cents: 210000,
        source: expect.stringContaining('CY 2026 Rate Announcement'),
      }),
      assumed: false,
    });
    expect(catalog.partDParameters(2031)).toMatchObject({ parameters: { year: 2026 }, assumed: true });
  });

  it('offers commercial, Medicare Part D, Medicare Advantage, Medicaid and TRICARE plans on known formularies', () => {
    const plans = catalog.payers.flatMap((payer) => payer.plans);
    expect(new Set(plans.map((plan) => plan.plan_type))).toEqual(
      new Set(['commercial', 'medicare', 'medicare_advantage', 'medicaid', 'tricare']),
    );
    const formularyIds = catalog.formularies.map((formulary) => formulary.id);
    for (const plan of plans) expect(formularyIds).toContain(plan.formulary_id);
  });

  it('lists at least 25 drugs with 11-digit NDCs, among them the GLP-1s, biologics and generics of the brief', () => {
    expect(catalog.drugs.length).toBeGreaterThanOrEqual(25);
    for (const drug of catalog.drugs) expect(drug.ndc).toMatch(/^\d{11}$/);
    const names = catalog.drugs.flatMap((drug) => [drug.brand_name, drug.generic_name]);
    for (const name of [
      'Ozempic',
      'Wegovy',
      'Mounjaro',
      'Zepbound',
      'Trulicity',
      'liraglutide',
      'Humira',
      'Enbrel',
      'infliximab',
      'Stelara',
      'Dupixent',
      'Xolair',
      'Nucala',
      'Fasenra',
      'Repatha',
      'Praluent',
      'metformin',
      'atorvastatin',
      'lisinopril',
      'insulin glargine',
      'apixaban',
      'empagliflozin',
      'sitagliptin',
      'tofacitinib',
      'secukinumab',
      'risankizumab',
      'upadacitinib',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('gives formulary entries tiers 1–5, PA and step-therapy flags, quantity limits, copays and exclusions', () => {
    const entries = catalog.formularies.flatMap((formulary) => Object.values(formulary.drugs));
    const covered = entries.flatMap((entry) => (entry.status === 'covered' ? [entry] : []));
    for (const entry of covered) {
      expect(entry.tier).toBeGreaterThanOrEqual(1);
      expect(entry.tier).toBeLessThanOrEqual(5);
      expect(entry.copays.map((copay) => copay.supply_duration_days)).toContain(30);
    }
    expect(covered.some((entry) => entry.prior_authorization_required)).toBe(true);
    expect(covered.some((entry) => !entry.prior_authorization_required)).toBe(true);
    expect(covered.some((entry) => entry.step_therapy.includes('metformin'))).toBe(true);
    expect(covered.some((entry) => entry.quantity_limit !== null)).toBe(true);
    expect(covered.some((entry) => entry.copays.some((copay) => copay.supply_duration_days === 90))).toBe(
      true,
    );
    expect(entries.some((entry) => entry.status === 'excluded')).toBe(true);
  });

  it('has PA criteria for every drug a formulary puts behind prior authorization', () => {
    for (const formulary of catalog.formularies) {
      for (const [drugId, entry] of Object.entries(formulary.drugs)) {
        const drug = catalog.drugs.find((candidate) => candidate.id === drugId);
        expect(drug).toBeDefined();
        if (entry.status === 'covered' && entry.prior_authorization_required) {
          expect({ drugId, criteria: catalog.criteriaFor(drug!).length }).toEqual({
            drugId,
            criteria: expect.any(Number),
          });
          expect(catalog.criteriaFor(drug!).length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('defines every mock case the simulator accepts', () => {
    expect(Object.keys(catalog.data.mockCases).sort()).toEqual([...BV_MOCK_CASES].sort());
  });

  it('finds a drug by brand or generic name ignoring case and strength, and by NDC with or without hyphens', () => {
    expect(catalog.findDrug({ name: 'OZEMPIC 1 mg pen' })?.id).toBe('ozempic');
    expect(catalog.findDrug({ name: 'semaglutide (Wegovy) 2.4 mg' })?.id).toBe('wegovy');
    expect(catalog.findDrug({ name: 'Insulin Glargine 100 units/mL' })?.id).toBe('lantus');
    expect(catalog.findDrug({ name: 'metformin ER 500 mg' })?.id).toBe('metformin');
    expect(catalog.findDrug({ ndc: '00074055402' })?.id).toBe('humira');
    expect(catalog.findDrug({ ndc: '0074-0554-02' })?.id).toBe('humira');
    expect(catalog.findDrug({ name: 'Unobtainium 5 mg' })).toBeUndefined();
  });
});

describe('plan resolution', () => {
  it('resolves the plan from discrete data by payer name, case-insensitively', async () => {
    expect(await planFor(fromContent({ payer: 'blue horizon HEALTH' }))).toEqual({
      payer_id: 'blue_horizon_health',
      payer_name: 'Blue Horizon Health',
      plan_id: 'bhh_ppo_select',
      plan_name: 'Blue Horizon PPO Select',
      plan_type: 'commercial',
      plan_fund_source: 'commercial',
      bin: '999901',
      pcn: 'SBXBHHPPO',
      pharmacy_benefit_manager_name: 'Meridian Rx Solutions',
      member_id: 'ZZBHH123456789',
      rx_group: 'SBXBHH0100',
    });
  });

  it('resolves the payer from the RxBIN when the payer name is not one the catalog knows', async () => {
    const plan = await planFor(fromContent({ payer: 'Regional Pharmacy Benefits', rx_bin: '999903' }));
    expect(plan.payer_name).toBe('Keystone CarePlan');
  });

  it('picks the plan of the requested plan type, else the payer’s commercial plan', async () => {
    const medicare = await planFor(
      fromContent({ payer: 'Blue Horizon Health', plan_type: 'medicare_advantage' }),
    );
    expect(medicare).toMatchObject({ plan_id: 'bhh_medicare_advantage', plan_fund_source: 'government' });
    const tricare = await planFor(fromContent({ payer: 'Frontier Military Health', plan_type: 'tricare' }));
    expect(tricare).toMatchObject({ plan_type: 'tricare', plan_fund_source: 'government' });
    expect((await planFor(fromContent({ payer: 'Keystone CarePlan' }))).plan_type).toBe('commercial');
  });

  it('reads the payer, member ID, RxBIN, RxPCN and plan from insurance card text', async () => {
    const plan = await planFor(
      fromCard(
        'payer: Keystone CarePlan',
        'Member ID: ZZKCP55501234',
        'Member Services: 1-800-555-0100',
        'RxBIN: 999903   RxPCN: SBXKCPMCD   RxGroup: SBXKCP8800',
        'Plan: Medicaid',
      ),
    );
    expect(plan).toMatchObject({
      payer_name: 'Keystone CarePlan',
      member_id: 'ZZKCP55501234',
      plan_type: 'medicaid',
      plan_fund_source: 'government',
    });
  });

  it('finds the payer of a card by its RxBIN, and the plan by its type, when no line names them', async () => {
    const plan = await planFor(
      fromCard('MEDICARE PRESCRIPTION DRUG COVERAGE', 'Member # ZZEVG20001234', 'BIN 999905'),
    );
    expect(plan).toMatchObject({
      payer_name: 'Evergreen Senior Rx',
      plan_type: 'medicare',
      member_id: 'ZZEVG20001234',
    });
  });

  it('explains, without repeating what was submitted, why a plan cannot be resolved', async () => {
    const unknownPayer = await simulator.resolvePlan(
      fromContent({ payer: 'Acme Mutual', member_id: 'ZZACM0001' }),
    );
    expect(unknownPayer).toEqual({ resolved: false, reason: expect.stringMatching(/^No payer .+\.$/) });
    const noMemberId = await simulator.resolvePlan(
      fromCard('Payer: Blue Horizon Health', 'Plan: Commercial'),
    );
    expect(noMemberId).toEqual({ resolved: false, reason: 'The insurance data has no member ID.' });
    const noPlan = await simulator.resolvePlan(
      fromContent({ payer: 'Great Lakes Community Health', plan_type: 'tricare' }),
    );
    expect(noPlan).toEqual({
      resolved: false,
      reason: 'Great Lakes Community Health has no tricare plan in the sandbox catalog.',
    });
    for (const resolution of [unknownPayer, noMemberId, noPlan]) {
      if (!resolution.resolved) expect(resolution.reason).not.toMatch(/Acme|ZZACM0001/);
    }
    expect(await simulator.resolvePlan({ cardTexts: [] })).toMatchObject({ resolved: false });
  });
});

describe('benefit checks', () => {
  it('answers each drug’s coverage, copays and the plan’s accumulators from the catalog', async () => {
    const check = await simulator.checkBenefits(benefitsInput());
    expect(check).toMatchObject({
      kind: 'completed',
      outcome: {
        coverage_status: 'covered',
        coverage_type: 'commercial',
        plan_fund_source: 'commercial',
        pharmacy_benefit_manager_name: 'Meridian Rx Solutions',
        payer_name: 'Blue Horizon Health',
        plan_name: 'Blue Horizon PPO Select',
        bin: '999901',
        pcn: 'SBXBHHPPO',
        deductible: { total_cents: 150000 },
        out_of_pocket: { total_cents: 600000 },
        drugs: [
          {
            drug: 'Ozempic',
            ndc: '00169413212',
            coverage: 'covered',
            coverage_detail_code: 'prior_authorization_required',
            tier: 3,
            prior_authorization_required: 'yes',
            step_therapy_required: true,
            quantity_limit: 1,
            copay: { amount_cents: 6000, supply_duration_days: 30 },
            copay_options: [
              { amount_cents: 6000, supply_duration_days: 30 },
              { amount_cents: 15000, supply_duration_days: 90 },
            ],
            determination_details: { is_on_formulary: true, is_explicit_plan_exclusion: false },
            has_active_prior_auth: false,
            benefit_type: 'pharmacy',
            hcpcs_code: null,
            source: 'formulary',
          },
        ],
      },
    });
  });

  it('gives one member the same accumulators every time and another member of the plan different ones', async () => {
    const outcomeFor = async (memberId: string) => {
      const check = await simulator.checkBenefits(
        benefitsInput({ insurance: fromContent({ payer: 'Blue Horizon Health', member_id: memberId }) }),
      );
      if (check.kind !== 'completed') throw new Error(`Expected a result, got ${check.kind}.`);
      return check.outcome;
    };
    const first = await outcomeFor('ZZBHH123456789');
    expect(await outcomeFor('zzbhh-123456789')).toEqual(first);
    const other = await outcomeFor('ZZBHH987654321');
    expect(other.accumulators.map((entry) => entry.met_cents)).not.toEqual(
      first.accumulators.map((entry) => entry.met_cents),
    );
    expect(other.deductible?.total_cents).toBe(first.deductible?.total_cents);
  });

  it('reports individual and family accumulators, in and out of network, in $10 steps that add up', async () => {
    const check = await simulator.checkBenefits(benefitsInput());
    if (check.kind !== 'completed') throw new Error(`Expected a result, got ${check.kind}.`);
    const { accumulators, deductible, out_of_pocket } = check.outcome;
    expect(accumulators.map(({ kind, level, network }) => `${kind} ${level} ${network}`).sort()).toEqual([
      'deductible family in_network',
      'deductible family out_of_network',
      'deductible individual in_network',
      'deductible individual out_of_network',
      'out_of_pocket family in_network',
      'out_of_pocket family out_of_network',
      'out_of_pocket individual in_network',
      'out_of_pocket individual out_of_network',
    ]);
    for (const entry of accumulators) {
      expect(entry).toMatchObject({ period: 'calendar_year', service_type_codes: ['30'] });
      expect(entry.met_cents! % 1000).toBe(0);
      expect(entry.met_cents! + entry.remaining_cents!).toBe(entry.total_cents);
    }
    const find = (kind: string, level: string) =>
      accumulators.find(
        (entry) => entry.kind === kind && entry.level === level && entry.network === 'in_network',
      )!;
    expect(deductible).toEqual({
      total_cents: 150000,
      met_cents: find('deductible', 'individual').met_cents,
      remaining_cents: find('deductible', 'individual').remaining_cents,
    });
    expect(out_of_pocket?.total_cents).toBe(600000);
    expect(find('deductible', 'family').met_cents).toBeGreaterThanOrEqual(
      find('deductible', 'individual').met_cents!,
    );
    expect(find('out_of_pocket', 'individual').met_cents).toBeGreaterThanOrEqual(
      find('deductible', 'individual').met_cents!,
    );
  });

  it('reports only in-network individual and family amounts for an HMO', async () => {
    const check = await simulator.checkBenefits(
      benefitsInput({
        insurance: fromContent({ payer: 'Summit Mutual Health', member_id: 'ZZSMH100200300' }),
      }),
    );
    expect(
      check.kind === 'completed' && new Set(check.outcome.accumulators.map((entry) => entry.network)),
    ).toEqual(new Set(['in_network']));
  });

  it('gives the calendar plan year of the date of service as the coverage dates', async () => {
    const check = await simulator.checkBenefits(benefitsInput());
    expect(check).toMatchObject({
      outcome: { coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' } },
    });
    const expired = await simulator.checkBenefits(
      benefitsInput({
        insurance: fromContent({ payer: 'Blue Horizon Health', member_id: 'ZZBHH123456EXP' }),
      }),
    );
    expect(expired).toMatchObject({
      outcome: { coverage_dates: { start_date: '2025-01-01', end_date: '2025-12-31' }, accumulators: [] },
    });
  });

  it.each([
    ['2025-06-01T12:00:00.000Z', 59000, 200000, []],
    ['2026-06-01T12:00:00.000Z', 61500, 210000, []],
    [
      '2027-02-01T12:00:00.000Z',
      61500,
      210000,
      ["Medicare Part D figures for 2027 are not in the sandbox table; 2026's are shown."],
    ],
  ])(
    'takes a Part D plan’s deductible and out-of-pocket threshold from the table for the year of %s',
    async (now, deductible, threshold, messages) => {
      const check = await new PayerSimulator({ now: () => new Date(now) }).checkBenefits(
        benefitsInput({ insurance: fromContent({ payer: 'Summit Mutual Health', plan_type: 'medicare' }) }),
      );
      expect(check).toMatchObject({
        outcome: {
          plan_name: 'Summit Senior Rx (PDP)',
          deductible: { total_cents: deductible },
          out_of_pocket: { total_cents: threshold },
          payer_messages: messages,
        },
      });
      if (check.kind === 'completed') {
        expect(check.outcome.accumulators.every((entry) => entry.service_type_codes[0] === '88')).toBe(true);
      }
    },
  );

  it('answers Remicade as a medical-benefit infusion: covered with prior authorization, its HCPCS code, no pharmacy copay', async () => {
    const check = await simulator.checkBenefits(
      benefitsInput({ drugs: [{ name: 'Remicade 100 mg vial', quantity: 1 }] }),
    );
    expect(check).toMatchObject({
      outcome: {
        drugs: [
          {
            drug: 'Remicade 100 mg vial',
            coverage: 'covered',
            coverage_detail_code: 'medical_benefit',
            benefit_type: 'medical',
            hcpcs_code: 'J1745',
            prior_authorization_required: 'yes',
            tier: null,
            copay: null,
            copay_options: [],
          },
        ],
      },
    });
  });

  it('reports excluded, off-formulary and unknown drugs as not covered, with prior authorization not applicable', async () => {
    const check = await simulator.checkBenefits(
      benefitsInput({
        insurance: fromContent({ payer: 'Summit Mutual Health', member_id: 'ZZSMH100200300' }),
        drugs: [
          { name: 'Wegovy 2.4 mg', quantity: 4 },
          { name: 'Victoza', quantity: 3 },
          { ndc: '99999-9999-99', quantity: 1 },
        ],
      }),
    );
    if (check.kind !== 'completed') throw new Error(`Expected completed, got ${check.kind}`);
    expect(
      check.outcome.drugs.map((drug) => [
        drug.coverage_detail_code,
        drug.determination_details.is_explicit_plan_exclusion,
      ]),
    ).toEqual([
      ['plan_exclusion', true],
      ['not_on_formulary', false],
      ['drug_not_recognized', false],
    ]);
    for (const drug of check.outcome.drugs) {
      expect(drug).toMatchObject({
        coverage: 'not_covered',
        prior_authorization_required: 'not_applicable',
        copay: null,
      });
    }
  });

  it('lists no copay for a drug that costs nothing on a Medicaid plan', async () => {
    const check = await simulator.checkBenefits(
      benefitsInput({
        insurance: fromContent({ payer: 'Great Lakes Community Health', member_id: 'ZZGLC000111222' }),
        drugs: [{ name: 'metformin 500 mg', quantity: 60 }],
      }),
    );
    expect(check).toMatchObject({
      kind: 'completed',
      outcome: {
        coverage_type: 'medicaid',
        plan_fund_source: 'government',
        drugs: [{ coverage: 'covered', prior_authorization_required: 'no', copay: null, copay_options: [] }],
      },
    });
  });

  it.each(MEMBER_ID_SUFFIX_CASES.filter(([, mockCase]) => mockCase !== 'manual_verification_required'))(
    'answers %s-suffixed member ids with coverage status %s',
    async (suffix, coverageStatus) => {
      const check = await simulator.checkBenefits(
        benefitsInput({
          insurance: fromContent({ payer: 'Blue Horizon Health', member_id: `ZZBHH123456${suffix}` }),
        }),
      );
      expect(check).toMatchObject({
        kind: 'completed',
        outcome: {
          coverage_status: coverageStatus,
          payer_name: 'Blue Horizon Health',
          deductible: null,
          drugs: [],
        },
      });
    },
  );

  it('needs manual verification for member ids ending in MAN', async () => {
    const check = await simulator.checkBenefits(
      benefitsInput({
        insurance: fromContent({ payer: 'Blue Horizon Health', member_id: 'zzbhh123456man' }),
      }),
    );
    expect(check).toEqual({ kind: 'inconclusive', reason: expect.stringContaining('manual verification') });
  });

  it('is inconclusive, with the reason, when the plan cannot be resolved', async () => {
    const check = await simulator.checkBenefits(
      benefitsInput({ insurance: fromContent({ payer: 'Acme Mutual' }) }),
    );
    expect(check).toEqual({ kind: 'inconclusive', reason: expect.stringMatching(/^No payer/) });
  });

  const documentedMockResults: Record<string, object> = {
    drugs_covered__prior_auth_required__has_copay: {
      coverage_status: 'covered',
      drugs: [{ coverage: 'covered', prior_authorization_required: 'yes', copay: { amount_cents: 4500 } }],
    },
    drugs_covered__prior_auth_required__no_copay: {
      coverage_status: 'covered',
      drugs: [{ coverage: 'covered', prior_authorization_required: 'yes', copay: null, copay_options: [] }],
    },
    drugs_covered__prior_auth_not_required__has_copay: {
      coverage_status: 'covered',
      drugs: [{ coverage: 'covered', prior_authorization_required: 'no', copay: { amount_cents: 2500 } }],
    },
    drugs_covered__prior_auth_not_required__no_copay: {
      coverage_status: 'covered',
      drugs: [{ coverage: 'covered', prior_authorization_required: 'no', copay: null, copay_options: [] }],
    },
    drugs_not_covered__prior_auth_na__no_copay: {
      coverage_status: 'covered',
      drugs: [
        {
          coverage: 'not_covered',
          prior_authorization_required: 'not_applicable',
          copay: null,
          copay_options: [],
          determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: true },
        },
      ],
    },
    patient_consent_required: { coverage_status: 'patient_consent_required', drugs: [] },
    patient_not_found: { coverage_status: 'patient_not_found', drugs: [] },
    coverage_expired: { coverage_status: 'coverage_expired', drugs: [] },
    coverage_not_started: { coverage_status: 'coverage_not_started', drugs: [] },
  };

  it.each(BV_MOCK_CASES.filter((mockCase) => mockCase !== 'manual_verification_required'))(
    'answers the sandbox case %s with its documented outcome',
    async (mockCase) => {
      const check = await simulator.checkBenefits(benefitsInput({ mockCase, mockStatus: 'completed' }));
      expect(check).toMatchObject({ kind: 'completed', outcome: documentedMockResults[mockCase] });
    },
  );

  it('answers the sandbox case manual_verification_required as inconclusive', async () => {
    const check = await simulator.checkBenefits(benefitsInput({ mockCase: 'manual_verification_required' }));
    expect(check).toEqual({ kind: 'inconclusive', reason: expect.stringContaining('manual verification') });
  });

  it('fills the plan fields of a mocked result when the plan resolves, and leaves them null otherwise', async () => {
    const mockCase = 'drugs_covered__prior_auth_required__has_copay';
    const resolved = await simulator.checkBenefits(benefitsInput({ mockCase }));
    expect(resolved).toMatchObject({
      outcome: { payer_name: 'Blue Horizon Health', bin: '999901', drugs: [{ ndc: '00169413212' }] },
    });
    const unresolved = await simulator.checkBenefits(
      benefitsInput({ mockCase, insurance: fromContent({ payer: 'Acme Mutual' }) }),
    );
    expect(unresolved).toMatchObject({
      kind: 'completed',
      outcome: { payer_name: null, coverage_type: null, bin: null, pcn: null, deductible: null },
    });
  });

  it('fails with the payer’s error when the sandbox status is failed', async () => {
    const check = await simulator.checkBenefits(benefitsInput({ mockStatus: 'failed' }));
    expect(check).toEqual({
      kind: 'failed',
      error: {
        title: 'Payer unavailable',
        code: 'payer_unavailable',
        detail_code: 'payer_timeout',
        message: expect.any(String),
      },
    });
  });

  it('refuses a mock case the catalog does not define', async () => {
    await expect(simulator.checkBenefits(benefitsInput({ mockCase: 'everything_is_free' }))).rejects.toThrow(
      'Unknown benefit verification mock case',
    );
  });
});

describe('prior authorization prefill', () => {
  it('answers a diagnosis criterion from the submitted diagnoses, and no when another condition is treated', async () => {
    const diabetic = await simulator.prefillPriorAuthorization(
      prefillInput({ diagnoses: [{ code: 'E11.9' }] }),
    );
    expect(criterion(diabetic.criteria, 'type2_diabetes')).toMatchObject({
      answer: 'yes',
      source: 'diagnosis E11.9',
    });
    const other = await simulator.prefillPriorAuthorization(prefillInput({ diagnoses: [{ code: 'I10' }] }));
    expect(criterion(other.criteria, 'type2_diabetes')).toMatchObject({
      answer: 'no',
      source: 'diagnosis I10',
    });
  });

  it('reads a lab value from evidence content, whatever its shape', async () => {
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({
        drug: { name: 'Repatha', quantity: 2 },
        evidence: [
          {
            title: 'Lipid panel',
            date_created: '2026-02-01T09:00:00Z',
            content: { results: [{ test: 'LDL-C', value: 142, unit: 'mg/dL' }] },
          },
        ],
      }),
    );
    expect(criterion(prefill.criteria, 'ldl_at_least_70')).toEqual({
      id: 'ldl_at_least_70',
      question: "Is the patient's LDL-C at least 70 mg/dL within the last 12 months?",
      answer: 'yes',
      source: 'evidence "Lipid panel": "LDL-C: 142 mg/dL"',
    });
  });

  it('takes a questionnaire’s yes or no, or reads a value or a duration from its answer', async () => {
    const questionnaire = (questions: Array<{ question: string; answer: string }>) => [
      { questions, created_at: '2026-02-10T10:00:00Z' },
    ];
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({
        diagnoses: [{ code: 'E11.9' }],
        questionnaires: questionnaire([
          { question: 'How long has the patient taken metformin?', answer: '6 months' },
          { question: 'Most recent HbA1c (%)', answer: '6.4' },
        ]),
      }),
    );
    expect(prefill.criteria.map(({ id, answer, source }) => ({ id, answer, source }))).toEqual([
      { id: 'adult', answer: 'yes', source: 'patient date of birth: "age 57 years"' },
      { id: 'type2_diabetes', answer: 'yes', source: 'diagnosis E11.9' },
      { id: 'a1c_at_least_7', answer: 'no', source: 'questionnaire: "Most recent HbA1c (%)" → "6.4"' },
      {
        id: 'metformin_trial',
        answer: 'yes',
        source: 'questionnaire: "How long has the patient taken metformin?" → "6 months"',
      },
    ]);
  });

  it('reads prior therapy, its duration and lab values from visit-note text', async () => {
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({
        drug: { name: 'Nucala', quantity: 1 },
        diagnoses: [{ code: 'J45.50' }],
        visitNotes: [
          note(
            'Severe persistent asthma on fluticasone/salmeterol for 9 months. Blood eosinophils 300 cells/µL. ' +
              'Two exacerbations in the past year.',
          ),
        ],
      }),
    );
    expect(prefill.criteria.map(({ id, answer, source }) => [id, answer, source])).toEqual([
      ['age_6_or_older', 'yes', 'patient date of birth: "age 57 years"'],
      ['severe_asthma', 'yes', 'diagnosis J45.50'],
      ['eosinophil_requirement', 'yes', 'visit note 2026-02-10: "Blood eosinophils 300 cells/µL"'],
      ['ics_laba_trial', 'yes', 'visit note 2026-02-10: "fluticasone/salmeterol for 9 months"'],
      ['exacerbation_history', 'yes', 'visit note 2026-02-10: "Two exacerbations in the past year"'],
    ]);
  });

  it('answers no to a trial shorter than required or denied in the notes, and unknown when the record is silent', async () => {
    const diagnoses = [{ code: 'E11.9' }];
    const short = await simulator.prefillPriorAuthorization(
      prefillInput({
        diagnoses,
        visitNotes: [note('Started metformin 500 mg twice daily for 6 weeks; A1c 8.1 %.')],
      }),
    );
    expect(criterion(short.criteria, 'metformin_trial')).toMatchObject({
      answer: 'no',
      source: 'visit note 2026-02-10: "metformin 500 mg twice daily for 6 weeks"',
    });
    const never = await simulator.prefillPriorAuthorization(
      prefillInput({ diagnoses, visitNotes: [note('Patient has never tried metformin.')] }),
    );
    expect(criterion(never.criteria, 'metformin_trial').answer).toBe('no');
    const silent = await simulator.prefillPriorAuthorization(prefillInput({ diagnoses }));
    expect(silent.criteria.map((answer) => [answer.id, answer.answer])).toEqual([
      ['adult', 'yes'],
      ['type2_diabetes', 'yes'],
      ['a1c_at_least_7', 'unknown'],
      ['metformin_trial', 'unknown'],
    ]);
  });

  it('accepts a documented metformin intolerance for the metformin trial, as clinical eligibility does', async () => {
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({
        diagnoses: [{ code: 'E11.9' }],
        visitNotes: [note('Metformin not tolerated (GI upset).')],
      }),
    );
    expect(criterion(prefill.criteria, 'metformin_trial')).toMatchObject({
      answer: 'yes',
      source: 'visit note 2026-02-10: "Metformin not tolerated"',
    });
  });

  it('gives the plan’s coverage and asks the criteria of the plan’s formulary', async () => {
    const commercial = await simulator.prefillPriorAuthorization(
      prefillInput({ plan: await planFor(blueHorizon) }),
    );
    expect(commercial.coverage).toMatchObject({
      tier: 3,
      prior_authorization_required: 'yes',
      step_therapy_required: true,
    });
    expect(commercial.criteria.map((answer) => answer.id)).toContain('metformin_trial');
    const medicare = await simulator.prefillPriorAuthorization(
      prefillInput({ plan: await planFor(fromContent({ payer: 'Evergreen Senior Rx' })) }),
    );
    expect(medicare.coverage).toMatchObject({ step_therapy_required: false });
    expect(medicare.criteria.map((answer) => answer.id)).toEqual([
      'adult',
      'type2_diabetes',
      'a1c_at_least_7',
    ]);
  });

  it('gives no coverage without a plan, and nothing at all for a drug the catalog does not know', async () => {
    expect((await simulator.prefillPriorAuthorization(prefillInput())).coverage).toBeNull();
    expect(
      await simulator.prefillPriorAuthorization(
        prefillInput({ plan: await planFor(blueHorizon), drug: { name: 'Unobtainium', quantity: 1 } }),
      ),
    ).toEqual({ coverage: null, criteria: [] });
  });
});

describe('prior authorization submission and determination', () => {
  const met = (id: string): CriterionAnswer => ({
    id,
    question: id,
    answer: 'yes',
    source: 'diagnosis E11.9',
  });

  async function submission(overrides: Partial<PriorAuthSubmissionInput> = {}) {
    const input: PriorAuthSubmissionInput = {
      caseId: 'pa_simulatortest00000000000000',
      plan: await planFor(blueHorizon),
      drug: { name: 'Ozempic 1 mg pen', quantity: 1 },
      urgency: 'standard',
      criteria: [met('type2_diabetes_diagnosis'), met('metformin_trial'), met('a1c_at_least_7')],
      ...overrides,
    };
    const { payer_reference } = await simulator.submitPriorAuthorization(input);
    return { ...input, payer_reference, checksSoFar: 1 };
  }

  it('derives the payer reference from the submission, so a retried submit gets the same one', async () => {
    const first = await submission();
    const again = await submission();
    const expedited = await submission({ urgency: 'expedited' });
    expect(first.payer_reference).toMatch(/^PA-[0-9A-F]{10}$/);
    expect(again.payer_reference).toBe(first.payer_reference);
    expect(expedited.payer_reference).not.toBe(first.payer_reference);
  });

  it('is still pending at the first check', async () => {
    expect(await simulator.checkDetermination({ ...(await submission()), checksSoFar: 0 })).toBeNull();
  });

  it('returns a mocked result, with the default detail code of its result', async () => {
    const denied = await simulator.checkDetermination(await submission({ mockResult: { result: 'denied' } }));
    expect(denied).toMatchObject({
      result: 'denied',
      detail_code: 'medical_necessity_criteria_not_met',
      authorization_start_date: null,
    });
    const other = await simulator.checkDetermination(await submission({ mockResult: { result: 'other' } }));
    expect(other).toMatchObject({ result: 'other', detail_code: 'more_information_required' });
    const excluded = await simulator.checkDetermination(
      await submission({ mockResult: { result: 'denied', detail_code: 'plan_exclusion' } }),
    );
    expect(excluded).toMatchObject({
      detail_code: 'plan_exclusion',
      detail: 'The plan excludes this drug from coverage.',
    });
  });

  it('approves for a year when every criterion is met', async () => {
    const input = await submission();
    expect(await simulator.checkDetermination(input)).toEqual({
      result: 'approved',
      detail_code: 'approval',
      detail: 'The payer approved the prior authorization.',
      payer_reference: input.payer_reference,
      decided_at: '2026-03-01T12:00:00.000Z',
      authorization_start_date: '2026-03-01',
      authorization_expiration: '2027-03-01',
    });
  });

  it('denies for step therapy when a step-therapy criterion is not met', async () => {
    const input = await submission({
      criteria: [
        met('type2_diabetes_diagnosis'),
        { id: 'metformin_trial', question: 'Has the patient tried metformin?', answer: 'no', source: null },
        { id: 'a1c_at_least_7', question: 'A1c ≥ 7 %?', answer: 'unknown', source: null },
      ],
    });
    expect(await simulator.checkDetermination(input)).toMatchObject({
      result: 'denied',
      detail_code: 'step_therapy_criteria_not_met',
      detail: expect.stringContaining('Has the patient tried metformin?'),
      authorization_expiration: null,
    });
  });

  it('denies for medical necessity when another criterion is not shown', async () => {
    const input = await submission({
      criteria: [
        met('type2_diabetes_diagnosis'),
        met('metformin_trial'),
        { id: 'a1c_at_least_7', question: 'A1c ≥ 7 %?', answer: 'unknown', source: null },
      ],
    });
    expect(await simulator.checkDetermination(input)).toMatchObject({
      result: 'denied',
      detail_code: 'medical_necessity_criteria_not_met',
    });
  });

  it('approves with prior_auth_not_required a drug the plan covers without prior authorization', async () => {
    const input = await submission({ drug: { name: 'Eliquis 5 mg', quantity: 60 }, criteria: [] });
    expect(await simulator.checkDetermination(input)).toMatchObject({
      result: 'approved',
      detail_code: 'prior_auth_not_required',
    });
  });

  it('denies a drug the plan excludes or leaves off its formulary', async () => {
    const plan = await planFor(fromContent({ payer: 'Summit Mutual Health' }));
    const excluded = await simulator.checkDetermination(
      await submission({ plan, drug: { name: 'Zepbound', quantity: 4 } }),
    );
    expect(excluded).toMatchObject({ result: 'denied', detail_code: 'plan_exclusion' });
    const offFormulary = await simulator.checkDetermination(
      await submission({ plan, drug: { name: 'Victoza', quantity: 3 } }),
    );
    expect(offFormulary).toMatchObject({ result: 'denied', detail_code: 'formulary_alternative_preferred' });
  });

  it('decides a medical-benefit drug on its criteria, not on a pharmacy formulary it is never on', async () => {
    const remicade = { name: 'Remicade', quantity: 1 };
    const criteria = (
      await simulator.prefillPriorAuthorization(
        prefillInput({ plan: await planFor(blueHorizon), drug: remicade }),
      )
    ).criteria;
    expect(criteria.length).toBeGreaterThan(0);
    const approved = await simulator.checkDetermination(
      await submission({ drug: remicade, criteria: criteria.map((criterion) => met(criterion.id)) }),
    );
    expect(approved).toMatchObject({ result: 'approved', detail_code: 'approval' });
  });
});

describe('the PA prefill and the criteria engine', () => {
  const engineStatus = (drug: string, id: string, overrides: Partial<ClinicalRecord>): string => {
    const [result] = evaluateClinicalEligibility(
      {
        patient: { date_of_birth: '1968-05-14', gender: 'female' },
        asOf: '2026-03-01',
        drugs: [{ name: drug, quantity: 1 }],
        diagnoses: [],
        questionnaires: [],
        visitNotes: [],
        evidence: [],
        ...overrides,
      },
      NO_PLAN,
      shippedClinicalCatalog(),
    ).results;
    const found = result?.criteria.find((item) => item.id === id);
    if (!found) throw new Error(`No criterion ${id}`);
    return found.status;
  };

  it('agree that "BMI above 30" meets a BMI of at least 30', async () => {
    const notes = [note('Obesity follow-up. BMI above 30.')];
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({ drug: { name: 'Wegovy', quantity: 1 }, visitNotes: notes }),
    );
    expect(criterion(prefill.criteria, 'bmi_requirement').answer).toBe('yes');
    expect(engineStatus('Wegovy', 'bmi_at_least_30', { visitNotes: notes })).toBe('met');
  });

  it('agree that "No" to "BMI at most 30?" meets a BMI of at least 30', async () => {
    const questionnaires = [
      { questions: [{ question: 'BMI at most 30?', answer: 'No' }], created_at: '2026-02-10T10:00:00Z' },
    ];
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({ drug: { name: 'Wegovy', quantity: 1 }, questionnaires }),
    );
    expect(criterion(prefill.criteria, 'bmi_requirement').answer).toBe('yes');
    expect(engineStatus('Wegovy', 'bmi_at_least_30', { questionnaires })).toBe('met');
  });

  it('agree that E66.3 "Overweight" does not show obesity, while a BMI code of 30 or more does', async () => {
    const wegovy = { name: 'Wegovy', quantity: 1 };
    const overweight = await simulator.prefillPriorAuthorization(
      prefillInput({ drug: wegovy, diagnoses: [{ code: 'E66.3' }] }),
    );
    expect(criterion(overweight.criteria, 'bmi_requirement').answer).not.toBe('yes');
    expect(engineStatus('Wegovy', 'bmi_at_least_30', { diagnoses: [{ code: 'E66.3' }] })).not.toBe('met');
    const bmiCode = await simulator.prefillPriorAuthorization(
      prefillInput({ drug: wegovy, diagnoses: [{ code: 'Z68.35' }] }),
    );
    expect(criterion(bmiCode.criteria, 'bmi_requirement').answer).toBe('yes');
    expect(engineStatus('Wegovy', 'bmi_at_least_30', { diagnoses: [{ code: 'Z68.35' }] })).toBe('met');
  });

  it('agree that a BMI of 28 with hypertension meets Wegovy’s BMI criterion, as its FDA label says', async () => {
    const record = { diagnoses: [{ code: 'I10' }], visitNotes: [note('BMI 28.4 kg/m2.')] };
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({ drug: { name: 'Wegovy', quantity: 1 }, ...record }),
    );
    expect(criterion(prefill.criteria, 'bmi_requirement').answer).toBe('yes');
    expect(engineStatus('Wegovy', 'bmi_at_least_27', record)).toBe('met');
  });

  it('agree that a trial mentioned without a length meets a criterion that asks for none', async () => {
    const record = {
      diagnoses: [{ code: 'L40.0' }],
      visitNotes: [note('Plaque psoriasis, treated with clobetasol.')],
    };
    const prefill = await simulator.prefillPriorAuthorization(
      prefillInput({ drug: { name: 'Humira', quantity: 1 }, ...record }),
    );
    expect(criterion(prefill.criteria, 'indication_and_conventional_therapy').answer).toBe('yes');
    expect(engineStatus('Humira', 'psoriasis_conventional_therapy', record)).toBe('met');
  });
});
