import type { PrescriberRegistryCheck } from '../providers/prescriber-registry';
import { normalizeName, normalizeNdc } from '../payers/name-matching';
import type { BenefitsOutcome, DrugCoverage, PriorAuthRequirement } from '../payers/payer-connector';
import type { CaseBinding } from './case-binding';
import type { CaseRecord, CaseTimings } from './case-model';
import type { BenefitVerificationRequest, DrugRequest } from './benefit-verification-request';

/** What a reviewer learned about one requested drug, by phone or on the payer's portal. */
export interface ManualDrugResult {
  /** A requested drug's name or NDC. */
  drug: string;
  coverage: 'covered' | 'not_covered' | 'unknown';
  prior_authorization_required: PriorAuthRequirement;
  copay?: { amount_cents: number; supply_duration_days: number };
  coinsurance_percent?: number;
  quantity_limit?: { quantity: number; period_days: number };
  notes?: string;
}

export interface ManualBalance {
  total_cents: number;
  met_cents: number;
}

/** The manual verification result a reviewer records for an inconclusive check. */
export interface ManualVerificationInput {
  status: 'completed' | 'failed';
  coverage_status?: BenefitsOutcome['coverage_status'];
  notes?: string;
  drugs?: ManualDrugResult[];
  deductible?: ManualBalance;
  out_of_pocket?: ManualBalance;
  coverage_dates?: { start_date?: string; end_date?: string };
  insurance?: ManualInsuranceCorrection;
}

/** Insurance fields a reviewer confirmed with the plan during a manual verification. */
export interface ManualInsuranceCorrection {
  payer?: string;
  member_id?: string;
  group_number?: string;
  rx_bin?: string;
  rx_pcn?: string;
  rx_group?: string;
}

export const NOT_RECORDED_MANUALLY = 'Not recorded by the manual verification.';

/** The requested drug a manual result names, by name or NDC, as the request wrote it or normalised. */
function requestedDrugIndex(requested: DrugRequest[], named: string): number {
  const name = normalizeName(named);
  const ndc = normalizeNdc(named);
  return requested.findIndex(
    (drug) =>
      (drug.name !== undefined && normalizeName(drug.name) === name) ||
      (drug.ndc !== undefined && /^\d{11}$/.test(ndc) && normalizeNdc(drug.ndc) === ndc),
  );
}

/**
 * What the request's validators cannot judge alone: each manual drug result names a drug this
 * verification requested, and no drug twice. Positions, never the drug names, identify the problem.
 */
export function manualVerificationIssues(
  requested: DrugRequest[],
  input: ManualVerificationInput,
): Array<{ field: string; issue: string }> {
  const issues: Array<{ field: string; issue: string }> = [];
  const seen = new Map<number, number>();
  (input.drugs ?? []).forEach((result, position) => {
    const index = requestedDrugIndex(requested, result.drug);
    if (index < 0) {
      issues.push({
        field: `drugs[${position}].drug`,
        issue: 'must be the name or NDC of a drug this benefit verification requested',
      });
    } else if (seen.has(index)) {
      issues.push({
        field: `drugs[${position}].drug`,
        issue: `names the same requested drug as drugs[${seen.get(index)}].drug`,
      });
    } else {
      seen.set(index, position);
    }
  });
  for (const balance of ['deductible', 'out_of_pocket'] as const) {
    const amounts = input[balance];
    if (amounts && amounts.met_cents > amounts.total_cents) {
      issues.push({ field: `${balance}.met_cents`, issue: 'must not be more than total_cents' });
    }
  }
  return issues;
}

/**
 * One result per requested drug, in the request's order: the reviewer's where one was recorded,
 * else `unknown` with the reason. Per-drug notes join the verification's notes, as they have no
 * field of their own in a drug result.
 */
export function manualDrugCoverage(requested: DrugRequest[], input: ManualVerificationInput): DrugCoverage[] {
  const byIndex = new Map(
    (input.drugs ?? []).map((result) => [requestedDrugIndex(requested, result.drug), result]),
  );
  return requested.map((request, index) => {
    const result = byIndex.get(index);
    const copay = result?.copay ? { ...result.copay } : null;
    const coverage = result?.coverage ?? 'unknown';
    return {
      drug: request.name ?? request.ndc ?? '',
      ndc: request.ndc ? normalizeNdc(request.ndc) : null,
      coverage,
      coverage_detail_code: !result
        ? 'not_recorded'
        : coverage === 'covered'
          ? result.prior_authorization_required === 'yes'
            ? 'prior_authorization_required'
            : 'covered'
          : coverage === 'not_covered'
            ? 'not_covered'
            : 'not_determined',
      unknown_reason:
        coverage !== 'unknown'
          ? null
          : result
            ? 'The manual verification could not determine coverage.'
            : NOT_RECORDED_MANUALLY,
      benefit_type: 'pharmacy',
      hcpcs_code: null,
      coinsurance_percent: result?.coinsurance_percent ?? null,
      quantity_limit_period_days: result?.quantity_limit?.period_days ?? null,
      source: 'manual',
      tier: null,
      prior_authorization_required: result?.prior_authorization_required ?? 'not_applicable',
      step_therapy_required: false,
      quantity_limit: result?.quantity_limit?.quantity ?? null,
      copay,
      copay_options: copay ? [{ ...copay }] : [],
      determination_details: { is_on_formulary: coverage === 'covered', is_explicit_plan_exclusion: false },
      has_active_prior_auth: false,
    };
  });
}

/** The verification's notes followed by each drug's, labelled with the drug as requested. */
export function manualVerificationNotes(
  requested: DrugRequest[],
  input: ManualVerificationInput,
): string | null {
  const drugNotes = (input.drugs ?? [])
    .filter((result) => result.notes)
    .map((result) => {
      const request = requested[requestedDrugIndex(requested, result.drug)];
      return `${request?.name ?? request?.ndc ?? result.drug}: ${result.notes}`;
    });
  const all = [...(input.notes ? [input.notes] : []), ...drugNotes];
  return all.length > 0 ? all.join('\n') : null;
}

/** A balance as the outcome reports it, with what remains. */
export function manualBalance(balance: ManualBalance | undefined): BenefitsOutcome['deductible'] {
  return balance
    ? { ...balance, remaining_cents: Math.max(0, balance.total_cents - balance.met_cents) }
    : null;
}

export type BenefitVerificationOutcome = BenefitsOutcome & {
  verified_manually: boolean;
  notes: string | null;
  /** The insurance fields a reviewer confirmed with the plan, when a manual verification gave any. */
  insurance_confirmed_by_reviewer?: ManualInsuranceCorrection;
};

export interface BenefitVerificationCase extends CaseRecord {
  object: 'benefit_verification';
  outcome: BenefitVerificationOutcome | null;
  error: { title: string; code: string; detail_code: string; message: string } | null;
  /**
   * What the NPI registry said of the prescriber (docs/providers.md); absent on cases started before
   * the check.
   */
  prescriber_registry?: PrescriberRegistryCheck | null;
  request: BenefitVerificationRequest;
}

export interface BenefitVerificationInput {
  case: BenefitVerificationCase;
  accountId: string;
  /** Set by the API on cases started since the `verify-account-binding` patch. */
  binding?: CaseBinding;
  timings: CaseTimings;
}

export const BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS = {
  processing: 'Checking eligibility and drug coverage with the payer.',
  awaiting_review: 'The electronic check was inconclusive; waiting for a manual verification.',
  awaiting_outcome: 'Waiting for the payer.',
  completed: 'Benefits verified.',
  failed: 'The benefits could not be verified.',
  cancelled: 'Cancelled on request.',
} as const;
