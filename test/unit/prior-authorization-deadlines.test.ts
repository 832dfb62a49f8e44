import {
  payerDecisionDeadline,
  payerDueAt,
  type PayerDecisionDeadlines,
} from '../../domain/cases/prior-authorization-deadlines';

const HOUR = 3_600_000;
const CONFIGURED: PayerDecisionDeadlines = { standardMs: 15 * 24 * HOUR, expeditedMs: 72 * HOUR };

describe('payer decision deadlines by plan type', () => {
  it.each([
    ['medicare', 'standard', 72 * HOUR],
    ['medicare', 'expedited', 24 * HOUR],
    ['medicare_advantage', 'standard', 72 * HOUR],
    ['medicare_advantage', 'expedited', 24 * HOUR],
  ] as const)('gives a %s plan Part D’s deadline for a %s request', (planType, urgency, withinMs) => {
    expect(payerDecisionDeadline(planType, urgency, CONFIGURED)).toEqual({
      withinMs,
      rule: 'medicare_part_d',
    });
  });

  it.each([
    ['medicare', 'standard', 72 * HOUR],
    ['medicare_advantage', 'standard', 72 * HOUR],
    ['medicare_advantage', 'expedited', 24 * HOUR],
  ] as const)(
    'gives a %s plan Part B’s deadline for a %s request of a medical-benefit drug',
    (planType, urgency, withinMs) => {
      expect(payerDecisionDeadline(planType, urgency, CONFIGURED, 'medical')).toEqual({
        withinMs,
        rule: 'medicare_part_b',
      });
    },
  );

  it('keeps Part D’s rule for a pharmacy-benefit drug', () => {
    expect(payerDecisionDeadline('medicare_advantage', 'standard', CONFIGURED, 'pharmacy').rule).toBe(
      'medicare_part_d',
    );
  });

  it.each(['standard', 'expedited'] as const)(
    'gives Medicaid 24 hours for a %s request, as covered outpatient drugs require',
    (urgency) => {
      expect(payerDecisionDeadline('medicaid', urgency, CONFIGURED)).toEqual({
        withinMs: 24 * HOUR,
        rule: 'medicaid_covered_outpatient_drug',
      });
    },
  );

  it.each([['commercial'], ['tricare'], ['other'], [null]] as const)(
    'gives a %s plan the configured default',
    (planType) => {
      expect(payerDecisionDeadline(planType, 'standard', CONFIGURED).withinMs).toBe(15 * 24 * HOUR);
      expect(payerDecisionDeadline(planType, 'expedited', CONFIGURED)).toEqual({
        withinMs: 72 * HOUR,
        rule: 'configured_default',
      });
    },
  );

  it('counts the deadline from when the payer received the request', () => {
    expect(payerDueAt(new Date('2026-11-02T08:30:00Z'), 'medicaid', 'standard', CONFIGURED)).toBe(
      '2026-11-03T08:30:00.000Z',
    );
  });
});
