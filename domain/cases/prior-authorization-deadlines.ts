import type { PlanType } from './case-model';

/**
 * When a payer must decide a drug prior authorization, counted from its receipt of the request. Pure:
 * the workflow computes a case's `due_at` with it when the payer's first answer arrives.
 */

const HOUR_MS = 3_600_000;

export type Urgency = 'standard' | 'expedited';

/** Which benefit bills the drug (the catalog's `benefit_type`); null when unknown. */
export type DrugBenefit = 'pharmacy' | 'medical' | null | undefined;

/** The deadlines no regulation fixes for the plan type (commercial, TRICARE, other, unknown): configured. */
export interface PayerDecisionDeadlines {
  standardMs: number;
  expeditedMs: number;
}

export interface PayerDeadline {
  withinMs: number;
  /** Which rule set the deadline, for docs/workflows.md and tests. */
  rule: 'medicare_part_d' | 'medicare_part_b' | 'medicaid_covered_outpatient_drug' | 'configured_default';
}

/**
 * Medicare and Medicare Advantage: a drug billed under the medical benefit (the ones PAS carries) is
 * a Part B drug, whose organization determination takes 72 h, expedited 24 h (42 CFR 422.568(b)(1),
 * 422.572(a)); a pharmacy-benefit drug, or one whose benefit is unknown, is Part D's: 72 h standard
 * (42 CFR 423.568(b)), 24 h expedited (423.572(a)). Medicaid covered outpatient drugs: 24 h whatever
 * the urgency (Social Security Act §1927(d)(5)(A)). Every other plan, or no known plan: the
 * configured default.
 */
export function payerDecisionDeadline(
  planType: PlanType | null | undefined,
  urgency: Urgency,
  configured: PayerDecisionDeadlines,
  benefit: DrugBenefit = null,
): PayerDeadline {
  if (planType === 'medicare' || planType === 'medicare_advantage') {
    return {
      withinMs: (urgency === 'expedited' ? 24 : 72) * HOUR_MS,
      rule: benefit === 'medical' ? 'medicare_part_b' : 'medicare_part_d',
    };
  }
  if (planType === 'medicaid') return { withinMs: 24 * HOUR_MS, rule: 'medicaid_covered_outpatient_drug' };
  return {
    withinMs: urgency === 'expedited' ? configured.expeditedMs : configured.standardMs,
    rule: 'configured_default',
  };
}

/** The payer's decision deadline (ISO 8601) for a request it received at `receivedAt`. */
export function payerDueAt(
  receivedAt: Date,
  planType: PlanType | null | undefined,
  urgency: Urgency,
  configured: PayerDecisionDeadlines,
  benefit: DrugBenefit = null,
): string {
  return new Date(
    receivedAt.getTime() + payerDecisionDeadline(planType, urgency, configured, benefit).withinMs,
  ).toISOString();
}
