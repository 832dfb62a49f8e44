import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectorError } from '../../domain/failures';
import type { EligibilityResponse } from '../../domain/payers/eligibility';
import { eligibilityRejection } from '../../infrastructure/connectors/x12/eligibility-codes';
import { eligibilityOutcome } from '../../infrastructure/connectors/x12/eligibility-outcome';
import { readEligibilityResponse } from '../../infrastructure/connectors/x12/eligibility-response';
import { ACTIVE_ANSWER } from '../fixtures/x12/examples';

const read = (name: string) =>
  readEligibilityResponse(readFileSync(join(__dirname, '../fixtures/x12', name), 'utf8'));
const TODAY = '2026-11-23';

describe('the benefit verification a 271 becomes', () => {
  it('is covered, with the in-network individual plan-year deductible and out-of-pocket, plan, payer and PBM', () => {
    const result = eligibilityOutcome(read('ours-active-accumulators-pharmacy.271'), TODAY);
    expect(result).toMatchObject({
      kind: 'completed',
      outcome: {
        coverage_status: 'covered',
        coverage_type: 'commercial',
        plan_fund_source: 'commercial',
        payer_name: 'BLUE HORIZON HEALTH',
        plan_name: 'HORIZON POS SELECT',
        pharmacy_benefit_manager_name: 'FICTIONAL RX SERVICES',
        bin: null,
        pcn: null,
        deductible: { total_cents: 150000, met_cents: 42000, remaining_cents: 108000 },
        out_of_pocket: { total_cents: 600000, met_cents: 45000, remaining_cents: 555000 },
        coverage_dates: { start_date: '2026-01-01', end_date: '2026-12-31' },
        rejection: null,
      },
    });
  });

  it("is covered for LinuxForHealth's public sample on its date of service, with no amounts it does not state", () => {
    const result = eligibilityOutcome(
      read('linuxforhealth-subscriber-health-benefit-check.271'),
      '2006-05-01',
    );
    expect(result).toMatchObject({
      kind: 'completed',
      outcome: {
        coverage_status: 'covered',
        coverage_type: 'commercial',
        deductible: null,
        out_of_pocket: null,
      },
    });
  });

  it('is patient_not_found with the rejection when the payer cannot find the subscriber (AAA 75)', () => {
    expect(eligibilityOutcome(read('ours-subscriber-not-found.271'), TODAY)).toMatchObject({
      kind: 'completed',
      outcome: {
        coverage_status: 'patient_not_found',
        rejection: {
          level: 'subscriber',
          code: '75',
          reason: 'Subscriber/Insured Not Found',
          follow_up: 'C',
        },
      },
    });
  });

  it('is patient_not_found when the member id is invalid (AAA 72), even for a dependent', () => {
    expect(eligibilityOutcome(read('ours-invalid-member-id-with-dependent.271'), TODAY)).toMatchObject({
      kind: 'completed',
      outcome: { coverage_status: 'patient_not_found', rejection: { code: '72' } },
    });
  });

  it("is coverage_expired when the dependent's coverage is inactive", () => {
    expect(eligibilityOutcome(read('ours-dependent-coverage-ended.271'), TODAY)).toMatchObject({
      kind: 'completed',
      outcome: {
        coverage_status: 'coverage_expired',
        coverage_dates: { start_date: '2025-01-01', end_date: '2025-06-30' },
        payer_messages: ['DEPENDENT COVERAGE ENDED'],
      },
    });
  });

  it('is coverage_expired when active coverage ended before the date asked about', () => {
    expect(eligibilityOutcome(ACTIVE_ANSWER, '2027-01-04')).toMatchObject({
      outcome: { coverage_status: 'coverage_expired' },
    });
  });

  it('is coverage_not_started when coverage begins after the date asked about', () => {
    expect(eligibilityOutcome(ACTIVE_ANSWER, '2025-12-31')).toMatchObject({
      outcome: { coverage_status: 'coverage_not_started' },
    });
  });

  it('is patient_consent_required when the payer restricts access to the patient (AAA 41)', () => {
    const response = withRejection(eligibilityRejection('dependent', '41', 'N'));
    expect(eligibilityOutcome(response, TODAY)).toMatchObject({
      outcome: { coverage_status: 'patient_consent_required', rejection: { code: '41' } },
    });
  });

  it('fails with the payer rejection when the payer refuses the provider (AAA 50)', () => {
    const response = withRejection(eligibilityRejection('information_receiver', '50', 'N'));
    expect(eligibilityOutcome(response, TODAY)).toEqual({
      kind: 'failed',
      error: {
        title: 'Payer rejected the eligibility inquiry',
        code: 'payer_rejected',
        detail_code: 'aaa_50',
        message:
          'The payer rejected the eligibility inquiry at the information receiver level: Provider Ineligible for Inquiries (AAA 50).',
      },
    });
  });

  it('throws a transient connector error, so the activity is retried, when the payer cannot respond now (AAA 42)', () => {
    const attempt = () => eligibilityOutcome(read('ours-payer-unable-to-respond.271'), TODAY);
    expect(attempt).toThrow(ConnectorError);
    expect(attempt).toThrow(expect.objectContaining({ transient: true }));
  });

  it('is inconclusive when active coverage says nothing about the pharmacy benefit', () => {
    expect(eligibilityOutcome({ ...ACTIVE_ANSWER, pharmacy_benefits: [] }, TODAY)).toEqual({
      kind: 'inconclusive',
      reason: "The payer's 271 shows active coverage but says nothing about the pharmacy benefit.",
    });
  });

  it('is covered when the only pharmacy information is a pharmacy deductible', () => {
    const pharmacyDeductible = { ...ACTIVE_ANSWER.accumulators[0]!, service_type_codes: ['88'] };
    expect(
      eligibilityOutcome(
        { ...ACTIVE_ANSWER, pharmacy_benefits: [], accumulators: [pharmacyDeductible] },
        TODAY,
      ),
    ).toMatchObject({ kind: 'completed', outcome: { coverage_status: 'covered' } });
  });

  it('is inconclusive when the 271 states no coverage at all', () => {
    expect(eligibilityOutcome({ ...ACTIVE_ANSWER, coverage: 'unknown' }, TODAY)).toMatchObject({
      kind: 'inconclusive',
    });
  });

  it.each([
    ['MB', 'medicare', 'government'],
    ['HN', 'medicare_advantage', 'government'],
    ['MC', 'medicaid', 'government'],
    ['C1', 'commercial', 'commercial'],
    ['OT', 'other', null],
    ['ZZ', null, null],
  ])('reads insurance type %s as coverage type %s', (code, coverageType, fundSource) => {
    expect(eligibilityOutcome({ ...ACTIVE_ANSWER, insurance_type_code: code }, TODAY)).toMatchObject({
      outcome: { coverage_type: coverageType, plan_fund_source: fundSource },
    });
  });
});

function withRejection(rejection: EligibilityResponse['rejections'][number]): EligibilityResponse {
  return { ...ACTIVE_ANSWER, rejections: [rejection] };
}

describe('the example in docs/x12.md', () => {
  it('reads exactly as the documentation shows', () => {
    const doc = readFileSync(join(__dirname, '../../docs/x12.md'), 'utf8');
    const x12 = /```x12\n([\s\S]*?)```/.exec(doc)![1]!;
    const documented: unknown = JSON.parse(/```json\n([\s\S]*?)```/.exec(doc)![1]!);
    expect(eligibilityOutcome(readEligibilityResponse(x12), '2026-11-23')).toEqual({
      kind: 'completed',
      outcome: documented,
    });
  });
});

describe('a 271 that carves the pharmacy benefit out', () => {
  it('is inconclusive when every pharmacy row says not covered, rather than covered', () => {
    const carvedOut: EligibilityResponse = {
      ...ACTIVE_ANSWER,
      pharmacy_benefits: ACTIVE_ANSWER.pharmacy_benefits.map((benefit) => ({
        ...benefit,
        benefit: 'non_covered',
      })),
      accumulators: [],
    };
    expect(eligibilityOutcome(carvedOut, TODAY)).toMatchObject({
      kind: 'inconclusive',
      reason: expect.stringMatching(/carved out/),
    });
  });
});
