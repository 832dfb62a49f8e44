import { createHash } from 'node:crypto';

import type { BenefitAccumulator, BenefitLevel } from '../../domain/payers/eligibility';
import type { CatalogPlan, PayerCatalog, PlanLimits } from '../../domain/payers/payer-catalog';
import type { BenefitsOutcome } from '../../domain/payers/payer-connector';

/** Met amounts move in $10 steps, like the rounded figures payers report. */
const MET_STEP_CENTS = 1000;

const MEDICARE_PLAN_TYPES: ReadonlyArray<CatalogPlan['plan_type']> = ['medicare', 'medicare_advantage'];

type Network = 'in_network' | 'out_of_network';

/** What the simulated payer reports about the member's plan year. */
export type PlanYearFigures = Pick<
  BenefitsOutcome,
  'coverage_dates' | 'deductible' | 'out_of_pocket' | 'accumulators' | 'payer_messages'
>;

/** Every sandbox plan runs on the calendar year. */
export function calendarPlanYear(year: number): NonNullable<BenefitsOutcome['coverage_dates']> {
  return { start_date: `${year}-01-01`, end_date: `${year}-12-31` };
}

/**
 * The plan's totals for the year of `dateOfService` and what the member has met of them. The met
 * amounts follow from a hash of the member id, so one member always sees the same figures and two
 * members of one plan see different ones.
 */
export function planYearFigures(
  catalog: PayerCatalog,
  plan: CatalogPlan,
  memberId: string,
  dateOfService: string,
): PlanYearFigures {
  const year = Number(dateOfService.slice(0, 4));
  const limits = planLimits(catalog, plan, year);
  const memberKey = `${plan.id}|${memberId.toUpperCase().replace(/[^A-Z0-9]/g, '')}`;
  const serviceTypeCodes = MEDICARE_PLAN_TYPES.includes(plan.plan_type) ? ['88'] : ['30'];

  const accumulators: BenefitAccumulator[] = [];
  const add = (
    kind: BenefitAccumulator['kind'],
    level: BenefitLevel,
    network: Network,
    total: number,
    spent: number,
  ) => {
    const met = Math.min(total, spent);
    accumulators.push({
      kind,
      level,
      network,
      period: 'calendar_year',
      service_type_codes: serviceTypeCodes,
      total_cents: total,
      remaining_cents: total - met,
      met_cents: met,
    });
  };
  for (const network of ['in_network', 'out_of_network'] as const) {
    const deductible = amountsFor(limits.deductible, network);
    const outOfPocket = amountsFor(limits.outOfPocket, network);
    // One year's spending counts toward the deductible first and the out-of-pocket total throughout;
    // the family's spending includes the member's.
    const spent = memberSpending(
      `${memberKey}|individual|${network}`,
      outOfPocket.individual ?? deductible.individual,
    );
    const familyCap = outOfPocket.family ?? deductible.family;
    const familySpent = spent + memberSpending(`${memberKey}|family|${network}`, (familyCap ?? 0) - spent);
    if (deductible.individual !== undefined)
      add('deductible', 'individual', network, deductible.individual, spent);
    if (deductible.family !== undefined) add('deductible', 'family', network, deductible.family, familySpent);
    if (outOfPocket.individual !== undefined)
      add('out_of_pocket', 'individual', network, outOfPocket.individual, spent);
    if (outOfPocket.family !== undefined)
      add('out_of_pocket', 'family', network, outOfPocket.family, familySpent);
  }

  const headline = (kind: BenefitAccumulator['kind']) => {
    const entry = accumulators.find(
      (accumulator) =>
        accumulator.kind === kind &&
        accumulator.level === 'individual' &&
        accumulator.network === 'in_network',
    )!;
    return {
      total_cents: entry.total_cents!,
      met_cents: entry.met_cents!,
      remaining_cents: entry.remaining_cents!,
    };
  };
  return {
    coverage_dates: calendarPlanYear(year),
    deductible: headline('deductible'),
    out_of_pocket: headline('out_of_pocket'),
    accumulators,
    payer_messages: limits.partDNotice ? [limits.partDNotice] : [],
  };
}

function planLimits(
  catalog: PayerCatalog,
  plan: CatalogPlan,
  year: number,
): { deductible: PlanLimits; outOfPocket: PlanLimits; partDNotice: string | null } {
  const usesPartD =
    plan.deductible === 'medicare_part_d_standard' || plan.out_of_pocket === 'medicare_part_d_threshold';
  const { parameters, assumed } = catalog.partDParameters(year);
  return {
    deductible:
      plan.deductible === 'medicare_part_d_standard'
        ? { individual_cents: parameters.standard_deductible_cents }
        : plan.deductible,
    outOfPocket:
      plan.out_of_pocket === 'medicare_part_d_threshold'
        ? { individual_cents: parameters.out_of_pocket_threshold_cents }
        : plan.out_of_pocket,
    partDNotice:
      usesPartD && assumed
        ? `Medicare Part D figures for ${year} are not in the sandbox table; ${parameters.year}'s are shown.`
        : null,
  };
}

function amountsFor(limits: PlanLimits, network: Network): { individual?: number; family?: number } {
  return network === 'in_network'
    ? { individual: limits.individual_cents, family: limits.family_cents }
    : { individual: limits.out_of_network_individual_cents, family: limits.out_of_network_family_cents };
}

/**
 * A year's spending up to `cap`, in whole steps, that only `key` decides. Squaring the hash's fraction
 * leans toward small amounts, as most members spend little and few reach the cap.
 */
function memberSpending(key: string, cap: number | undefined): number {
  if (!cap || cap <= 0) return 0;
  const fraction = createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
  return Math.floor((cap * fraction * fraction) / MET_STEP_CENTS) * MET_STEP_CENTS;
}
