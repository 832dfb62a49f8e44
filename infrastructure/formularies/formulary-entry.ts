import { CLEARINGHOUSE_PAYER_ID } from '../../domain/payers/eligibility';
import type { DrugRequest } from '../../domain/cases/benefit-verification-request';
import { normalizeName, normalizeNdc } from '../../domain/payers/payer-catalog';
import type { DrugCoverage } from '../../domain/payers/payer-connector';

/** One drug on one plan of a payer, as a loaded formulary file states it (docs/formularies.md). */
export interface FormularyEntry {
  /** The line of the file the row starts on, so an answer can be traced back to its row. */
  row: number;
  /** Group number or plan name as the 271 reports it; null: every plan of the payer. */
  plan: string | null;
  /** 11 digits. */
  ndc: string | null;
  drug_name: string | null;
  coverage: 'covered' | 'not_covered';
  tier: number | null;
  prior_authorization_required: boolean;
  step_therapy_required: boolean;
  quantity_limit: number | null;
  quantity_limit_period_days: number | null;
  copay: { amount_cents: number; supply_duration_days: number } | null;
  coinsurance_percent: number | null;
  benefit_type: 'pharmacy' | 'medical';
  hcpcs_code: string | null;
}

/** A clearinghouse payer id (X12 NM109 of the payer): letters, digits and `.`, `_`, `-`. */
export const PAYER_ID_PATTERN = CLEARINGHOUSE_PAYER_ID;

/** Payer ids are compared upper-cased, so a 271 or a setting that spells one in lower case still finds it. */
export const payerIdKeyOf = (payerId: string): string => payerId.toUpperCase();

/** The forms a lookup compares: case, spacing and punctuation do not separate two names. */
export const planKeyOf = (plan: string | null): string => (plan ? normalizeName(plan) : '');
export const drugNameKeyOf = (name: string | null | undefined): string | null =>
  name ? normalizeName(name) || null : null;

/** The plan of a 271 as the lookup compares it; either field may name the plan a row is for. */
export function planKeysOf(plan: { groupNumber: string | null; planName: string | null }): string[] {
  return [...new Set([planKeyOf(plan.groupNumber), planKeyOf(plan.planName)])].filter(Boolean);
}

/**
 * The formulary's row for a requested drug: a row for the member's plan before a payer-wide one,
 * and within each the NDC before the name (an NDC names one product, a name may cover several).
 */
export function entryForDrug(
  entries: readonly FormularyEntry[],
  planKeys: readonly string[],
  drug: DrugRequest,
): FormularyEntry | undefined {
  const ndc = drug.ndc ? normalizeNdc(drug.ndc) : null;
  const nameKey = drugNameKeyOf(drug.name);
  const forPlan = (entry: FormularyEntry) => planKeys.includes(planKeyOf(entry.plan));
  const payerWide = (entry: FormularyEntry) => entry.plan === null;
  for (const applies of [forPlan, payerWide]) {
    const candidates = entries.filter(applies);
    const match =
      (ndc !== null && candidates.find((entry) => entry.ndc === ndc)) ||
      (nameKey !== null && candidates.find((entry) => drugNameKeyOf(entry.drug_name) === nameKey));
    if (match) return match;
  }
  return undefined;
}

/**
 * A requested drug's result from a loaded formulary. A drug the formulary does not list is not
 * covered: that is what a formulary's silence means, and it is said as `not_on_formulary`.
 */
export function coverageFromFormulary(drug: DrugRequest, entry: FormularyEntry | undefined): DrugCoverage {
  const requested = drug.name ?? drug.ndc ?? '';
  const ndc = entry?.ndc ?? (drug.ndc ? normalizeNdc(drug.ndc) : null);
  const answered = {
    drug: requested,
    ndc,
    unknown_reason: null,
    source: 'formulary',
    has_active_prior_auth: false,
  } as const;
  if (!entry || entry.coverage === 'not_covered') {
    return {
      ...answered,
      coverage: 'not_covered',
      coverage_detail_code: entry ? 'plan_exclusion' : 'not_on_formulary',
      benefit_type: entry?.benefit_type ?? 'pharmacy',
      hcpcs_code: entry?.hcpcs_code ?? null,
      tier: null,
      prior_authorization_required: 'not_applicable',
      step_therapy_required: false,
      quantity_limit: null,
      quantity_limit_period_days: null,
      copay: null,
      copay_options: [],
      coinsurance_percent: null,
      determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: entry !== undefined },
    };
  }
  return {
    ...answered,
    coverage: 'covered',
    coverage_detail_code: entry.prior_authorization_required
      ? 'prior_authorization_required'
      : entry.step_therapy_required
        ? 'step_therapy_required'
        : 'covered',
    benefit_type: entry.benefit_type,
    hcpcs_code: entry.hcpcs_code,
    tier: entry.tier,
    prior_authorization_required: entry.prior_authorization_required ? 'yes' : 'no',
    step_therapy_required: entry.step_therapy_required,
    quantity_limit: entry.quantity_limit,
    quantity_limit_period_days: entry.quantity_limit_period_days,
    copay: entry.copay && { ...entry.copay },
    copay_options: entry.copay ? [{ ...entry.copay }] : [],
    coinsurance_percent: entry.coinsurance_percent,
    determination_details: { is_on_formulary: true, is_explicit_plan_exclusion: false },
  };
}
