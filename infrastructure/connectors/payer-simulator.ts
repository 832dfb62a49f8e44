import { createHash } from 'node:crypto';

import type { DrugRequest } from '../../domain/cases/benefit-verification-request';
import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';
import type { EvaluationLimits } from '../../domain/clinical/clinical-model';
import { DAY_MS } from '../../domain/durations';
import { normalizeNdc, PayerCatalog } from '../../domain/payers/payer-catalog';
import type {
  CatalogDrug,
  CatalogPlan,
  CopayOption,
  MockDrugCoverage,
} from '../../domain/payers/payer-catalog';
import {
  drugWithoutFormularyTerms,
  noEligibilityDetails,
  PHARMACY_FORMULARY_ANSWER,
} from '../../domain/payers/payer-connector';
import type {
  BenefitsCheck,
  BenefitsCheckInput,
  BenefitsOutcome,
  CriterionAnswer,
  DrugCoverage,
  InsuranceEvidence,
  PayerConnector,
  PlanResolution,
  PriorAuthDetermination,
  PriorAuthPrefill,
  PriorAuthPrefillInput,
  PriorAuthResult,
  PriorAuthSubmissionInput,
} from '../../domain/payers/payer-connector';
import type {
  InformationRequest,
  PayerDetermination,
  PayerDeterminationResult,
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
  PriorAuthMockResult,
  PriorAuthorizationChannel,
} from '../../domain/payers/prior-authorization-exchange';
import { inlineEvaluator } from '../clinical/evaluation-pool';
import type { ClinicalEvaluator } from '../clinical/evaluation-pool';
import { AuthorizationPeriods, authorizationPeriods } from './authorization-periods';
import { CatalogPlanResolver } from './plan-resolution';
import type { PlanMatch, Resolution } from './plan-resolution';
import { calendarPlanYear, planYearFigures } from './simulated-plan-year';
import { playSandboxOutage } from './sandbox-outage';
import { shippedPayerCatalog } from '../catalogs/shipped-catalogs';

/**
 * The sandbox cases a benefit verification's `mock_result.case` may name (contract sections 3a and 9).
 * A constant, not read from the catalog, so request validation can list them at import time; the
 * catalog's mock case file defines each.
 */
export const BV_MOCK_CASES = [
  'drugs_covered__prior_auth_required__has_copay',
  'drugs_covered__prior_auth_required__no_copay',
  'drugs_covered__prior_auth_not_required__has_copay',
  'drugs_covered__prior_auth_not_required__no_copay',
  'drugs_not_covered__prior_auth_na__no_copay',
  'patient_consent_required',
  'patient_not_found',
  'coverage_expired',
  'coverage_not_started',
  'manual_verification_required',
] as const;
export type BvMockCase = (typeof BV_MOCK_CASES)[number];

/**
 * Member-id suffixes that lead to the patient-level answers without a `mock_result`, so a sandbox
 * integrator can reach them the way a real payer would produce them: from the member.
 */
export const MEMBER_ID_SUFFIX_CASES: ReadonlyArray<readonly [suffix: string, mockCase: BvMockCase]> = [
  ['NF', 'patient_not_found'],
  ['EXP', 'coverage_expired'],
  ['NS', 'coverage_not_started'],
  ['MAN', 'manual_verification_required'],
];

const DEFAULT_DETAIL_CODES: Record<PriorAuthMockResult, string> = {
  approved: 'approval',
  denied: 'medical_necessity_criteria_not_met',
  partially_approved: 'partial_approval',
  other: 'more_information_required',
  not_submitted: 'not_accepted',
};

const DETAIL_TEXTS: Record<string, string> = {
  approval: 'The payer approved the prior authorization.',
  prior_auth_not_required: 'The plan does not require prior authorization for this drug.',
  step_therapy_criteria_not_met: 'The plan requires other drugs to be tried first.',
  medical_necessity_criteria_not_met:
    "The record does not show that the plan's medical necessity criteria are met.",
  plan_exclusion: 'The plan excludes this drug from coverage.',
  formulary_alternative_preferred:
    "The drug is not on the plan's formulary; the plan prefers a formulary alternative.",
  more_information_required: 'The payer needs more information before it can decide.',
  partial_approval: 'The payer approved a lower quantity than requested.',
  not_accepted: 'The payer did not accept the request for review.',
};

/** How long the sandbox payer waits for answers to its information request. */
const INFORMATION_DUE_MS = 3 * DAY_MS;
/** Asked when the payer has no criterion of its own to ask about (a drug outside the catalog). */
const GENERIC_QUESTION = {
  id: 'clinical_documentation',
  text: 'Send the clinical documentation that supports the medical necessity of this drug for this patient.',
};

interface SimulatedDecision {
  result: PriorAuthResult;
  detail_code: string;
  unmet: string[];
}

/** What the sandbox payer makes of a request: a determination, an information request, or refusal. */
type SandboxAnswer =
  | { kind: 'determined'; result: PayerDeterminationResult; detail_code: string; unmet: string[] }
  | { kind: 'ask'; questions: InformationRequest['questions'] }
  | { kind: 'not_submitted'; reason_code: string };

export interface PayerSimulatorOptions {
  catalog?: PayerCatalog;
  now?: () => Date;
  /** Where clinical text is read for the PA prefill (the worker's thread pool); inline when absent. */
  evaluator?: ClinicalEvaluator;
  periods?: AuthorizationPeriods;
}

/**
 * The local payer: answers eligibility, drug coverage and prior authorization from the shipped catalog.
 * Every answer derives from the input and the catalog alone (the clock only stamps decisions and picks
 * the plan year), so an activity retried by Temporal gets the same answer.
 */
export class PayerSimulator implements PayerConnector, PriorAuthorizationChannel {
  private readonly catalog: PayerCatalog;
  private readonly now: () => Date;
  private readonly evaluator: ClinicalEvaluator;
  private readonly periods: AuthorizationPeriods;
  private readonly plans: CatalogPlanResolver;

  constructor(options: PayerSimulatorOptions = {}) {
    this.catalog = options.catalog ?? shippedPayerCatalog();
    this.now = options.now ?? (() => new Date());
    this.evaluator = options.evaluator ?? inlineEvaluator;
    this.periods = options.periods ?? authorizationPeriods();
    this.plans = new CatalogPlanResolver(this.catalog);
  }

  async resolvePlan(insurance: InsuranceEvidence): Promise<PlanResolution> {
    return this.plans.resolvePlan(insurance);
  }

  async checkBenefits(input: BenefitsCheckInput): Promise<BenefitsCheck> {
    playSandboxOutage('payer', input.mockOutageUntil, this.now());
    if (input.mockStatus === 'failed') return { kind: 'failed', error: { ...this.catalog.mockFailure } };
    const resolution = this.plans.resolve(input.insurance);
    if (input.mockCase) return this.mockedBenefits(input.mockCase, resolution, input.drugs);
    if (!resolution.resolved) return { kind: 'inconclusive', reason: resolution.reason };

    const memberId = resolution.match.resolved.member_id.toUpperCase();
    const memberCase = MEMBER_ID_SUFFIX_CASES.find(([suffix]) => memberId.endsWith(suffix));
    if (memberCase) return this.mockedBenefits(memberCase[1], resolution, input.drugs);

    const drugs = input.drugs.map((drug) => this.coverage(resolution.match.plan, drug));
    return { kind: 'completed', outcome: this.outcome(resolution.match, 'covered', drugs) };
  }

  async prefillPriorAuthorization(
    input: PriorAuthPrefillInput,
    limits?: EvaluationLimits,
  ): Promise<PriorAuthPrefill> {
    playSandboxOutage('payer', input.mockOutageUntil, this.now());
    const drug = this.catalog.findDrug(input.drug);
    const plan = input.plan ? this.catalog.findPlan(input.plan.plan_id)?.plan : undefined;
    if (!drug) return { coverage: null, criteria: [] };
    const criteria = this.catalog.criteriaFor(drug, plan);
    const asOf = isoDate(this.now());
    return {
      coverage: plan ? this.coverage(plan, input.drug) : null,
      criteria: await this.evaluator.run({ kind: 'prior_auth_criteria', criteria, input, asOf }, limits),
    };
  }

  async submitPriorAuthorization(input: PriorAuthSubmissionInput): Promise<{ payer_reference: string }> {
    return { payer_reference: payerReference(input) };
  }

  async checkDetermination(
    input: PriorAuthSubmissionInput & { payer_reference: string; checksSoFar: number },
  ): Promise<PriorAuthDetermination | null> {
    // Real payers take a while: the first check always finds the request still under review.
    if (input.checksSoFar === 0) return null;
    const decision = input.mockResult
      ? {
          result: input.mockResult.result,
          detail_code: input.mockResult.detail_code ?? DEFAULT_DETAIL_CODES[input.mockResult.result],
          unmet: [],
        }
      : this.decide(input);
    const now = this.now();
    const approved = decision.result === 'approved';
    const days = this.periods.initialApprovalDays(this.catalog.findDrug(input.drug)?.id);
    return {
      result: decision.result,
      detail_code: decision.detail_code,
      detail: detailText(decision.detail_code, decision.unmet),
      payer_reference: input.payer_reference,
      decided_at: now.toISOString(),
      authorization_start_date: approved ? isoDate(now) : null,
      authorization_expiration: approved ? isoDate(new Date(now.getTime() + days * DAY_MS)) : null,
    };
  }

  // The sandbox payer as a prior authorization channel: it receives every request it accepts as
  // pended, finds it still pended at the first inquiry, then answers what it decided.

  async submit(input: PriorAuthExchangeInput): Promise<PayerPriorAuthAnswer> {
    const answer = this.sandboxAnswer(input, false);
    if (answer.kind === 'not_submitted') return this.exchangeAnswer(input, null, answer);
    return {
      kind: 'pended',
      payer_reference: exchangeReference(input.caseId),
      information_request: answer.kind === 'ask' ? this.informationRequest(answer.questions) : null,
    };
  }

  async inquire(input: PriorAuthInquiryInput): Promise<PayerPriorAuthAnswer> {
    const answer = this.sandboxAnswer(input, false);
    if (input.inquiriesSoFar === 0 && answer.kind === 'determined')
      return { kind: 'pended', payer_reference: input.payer_reference, information_request: null };
    return this.exchangeAnswer(input, input.payer_reference, answer);
  }

  async answerInformationRequest(input: PriorAuthInformationInput): Promise<PayerPriorAuthAnswer> {
    return this.exchangeAnswer(input, input.payer_reference, this.sandboxAnswer(input, true));
  }

  private exchangeAnswer(
    input: PriorAuthExchangeInput,
    reference: string | null,
    answer: SandboxAnswer,
  ): PayerPriorAuthAnswer {
    if (answer.kind === 'not_submitted') {
      return {
        kind: 'not_submitted',
        payer_reference: reference,
        reason_code: answer.reason_code,
        reason: detailText(answer.reason_code, []),
      };
    }
    const payerReference = reference ?? exchangeReference(input.caseId);
    if (answer.kind === 'ask') {
      return {
        kind: 'pended',
        payer_reference: payerReference,
        information_request: this.informationRequest(answer.questions),
      };
    }
    return {
      kind: 'determined',
      payer_reference: payerReference,
      determination: this.determination(input.request, payerReference, answer),
    };
  }

  /**
   * `mock_result` forces the answer; without it the catalog and the prefilled criteria decide. An
   * information request once answered counts the criteria it asked about as shown.
   */
  private sandboxAnswer(input: PriorAuthExchangeInput, answered: boolean): SandboxAnswer {
    const mock = input.request.mock_result;
    // A mock of the CRD service's answer alone leaves the determination to the catalog and criteria.
    if (mock?.result) {
      const detailCode = mock.detail_code ?? DEFAULT_DETAIL_CODES[mock.result];
      if (mock.result === 'not_submitted') return { kind: 'not_submitted', reason_code: detailCode };
      if (mock.result !== 'other' || detailCode !== DEFAULT_DETAIL_CODES.other)
        return { kind: 'determined', result: mock.result, detail_code: detailCode, unmet: [] };
      if (!answered) return { kind: 'ask', questions: this.questionsAbout(input.criteria) };
      return this.criteriaAnswer(input, true);
    }
    return this.criteriaAnswer(input, answered);
  }

  /** The formulary decides first (no PA needed, excluded, off formulary), then a criterion not met. */
  private criteriaAnswer(input: PriorAuthExchangeInput, answered: boolean): SandboxAnswer {
    const submission = exchangeSubmission(input);
    const byFormulary = this.formularyDecision(submission);
    if (byFormulary) return { kind: 'determined', ...byFormulary };
    if (input.criteria.some((criterion) => criterion.answer === 'no'))
      return { kind: 'determined', ...this.criteriaDecision(submission) };
    const unknown = input.criteria.filter((criterion) => criterion.answer === 'unknown');
    if (!answered && (input.criteria.length === 0 || unknown.length > 0))
      return { kind: 'ask', questions: this.questionsAbout(unknown) };
    return { kind: 'determined', result: 'approved', detail_code: 'approval', unmet: [] };
  }

  private questionsAbout(criteria: CriterionAnswer[]): InformationRequest['questions'] {
    const unknown = criteria.filter((criterion) => criterion.answer !== 'yes');
    return unknown.length > 0
      ? unknown.map((criterion) => ({ id: criterion.id, text: criterion.question }))
      : [GENERIC_QUESTION];
  }

  private informationRequest(questions: InformationRequest['questions']): InformationRequest {
    return {
      kind: 'information_requested',
      questions,
      due_at: new Date(this.now().getTime() + INFORMATION_DUE_MS).toISOString(),
    };
  }

  /**
   * Approvals last as long as the drug's class says. A partial one approves half the quantity; a
   * single unit cannot be halved, so its partial approval is the unit for half the period instead.
   */
  private determination(
    request: PriorAuthorizationRequest,
    payerReference: string,
    decided: Extract<SandboxAnswer, { kind: 'determined' }>,
  ): PayerDetermination {
    const now = this.now();
    const approves = decided.result === 'approved' || decided.result === 'partially_approved';
    const { quantity } = request.prescription;
    const drug = this.catalog.findDrug(prescribedDrug(request));
    const partial = decided.result === 'partially_approved';
    const fullDays = this.periods.initialApprovalDays(drug?.id);
    const days = partial && quantity < 2 ? Math.max(1, Math.floor(fullDays / 2)) : fullDays;
    return {
      result: decided.result,
      detail_code: decided.detail_code,
      detail: detailText(decided.detail_code, decided.unmet),
      decided_at: now.toISOString(),
      authorization_number: approves ? `AUTH-${payerReference.slice(3)}` : null,
      approved_quantity: !approves ? null : partial ? partialQuantity(quantity) : quantity,
      authorization_start_date: approves ? isoDate(now) : null,
      authorization_expiration: approves ? isoDate(new Date(now.getTime() + days * DAY_MS)) : null,
    };
  }

  private mockedBenefits(name: string, resolution: Resolution, requests: DrugRequest[]): BenefitsCheck {
    const definition = this.catalog.mockCase(name);
    if (!definition) throw new Error(`Unknown benefit verification mock case "${name}".`);
    if (definition.result === 'inconclusive') return { kind: 'inconclusive', reason: definition.reason };
    const template = definition.drug_coverage;
    const drugs = template ? requests.map((request) => this.mockedCoverage(request, template)) : [];
    const match = resolution.resolved ? resolution.match : null;
    return { kind: 'completed', outcome: this.outcome(match, definition.coverage_status, drugs) };
  }

  private outcome(
    match: PlanMatch | null,
    coverageStatus: BenefitsOutcome['coverage_status'],
    drugs: DrugCoverage[],
  ): BenefitsOutcome {
    const dateOfService = isoDate(this.now());
    // Accumulators describe active coverage; a member not found or not covered has none to report.
    const planYear =
      match && coverageStatus === 'covered'
        ? planYearFigures(this.catalog, match.plan, match.resolved.member_id, dateOfService)
        : null;
    return {
      coverage_status: coverageStatus,
      coverage_type: match?.plan.plan_type ?? null,
      plan_fund_source: match?.resolved.plan_fund_source ?? null,
      pharmacy_benefit_manager_name: match?.payer.pharmacy_benefit_manager_name ?? null,
      payer_name: match?.payer.name ?? null,
      plan_name: match?.plan.name ?? null,
      bin: match?.payer.bin ?? null,
      pcn: match?.plan.pcn ?? null,
      deductible: planYear?.deductible ?? null,
      out_of_pocket: planYear?.out_of_pocket ?? null,
      drugs,
      ...noEligibilityDetails(),
      coverage_dates: match ? coverageDates(coverageStatus, Number(dateOfService.slice(0, 4))) : null,
      accumulators: planYear?.accumulators ?? [],
      payer_messages: planYear?.payer_messages ?? [],
    };
  }

  private coverage(plan: CatalogPlan, request: DrugRequest): DrugCoverage {
    const requested = request.name ?? request.ndc ?? '';
    const drug = this.catalog.findDrug(request);
    if (!drug) {
      return notCovered(
        requested,
        request.ndc ? normalizeNdc(request.ndc) : null,
        'drug_not_recognized',
        false,
      );
    }
    if (drug.benefit === 'medical') return medicalBenefit(requested, drug);
    const entry = this.catalog.formularyEntry(plan.formulary_id, drug.id);
    if (!entry) return notCovered(requested, drug.ndc, 'not_on_formulary', false);
    if (entry.status === 'excluded') return notCovered(requested, drug.ndc, 'plan_exclusion', true);
    const stepTherapy = entry.step_therapy.length > 0;
    return {
      drug: requested,
      ndc: drug.ndc,
      coverage: 'covered',
      coverage_detail_code: entry.prior_authorization_required
        ? 'prior_authorization_required'
        : stepTherapy
          ? 'step_therapy_required'
          : 'covered',
      tier: entry.tier,
      prior_authorization_required: this.catalog.priorAuthorizationRequirement(plan.formulary_id, drug),
      step_therapy_required: stepTherapy,
      quantity_limit: entry.quantity_limit,
      ...copays(entry.copays),
      determination_details: { is_on_formulary: true, is_explicit_plan_exclusion: false },
      has_active_prior_auth: false,
      ...PHARMACY_FORMULARY_ANSWER,
    };
  }

  private mockedCoverage(request: DrugRequest, template: MockDrugCoverage): DrugCoverage {
    const { is_on_formulary, is_explicit_plan_exclusion, copay_options, ...coverage } = template;
    const drug = this.catalog.findDrug(request);
    return {
      ...coverage,
      drug: request.name ?? request.ndc ?? '',
      ndc: drug?.ndc ?? (request.ndc ? normalizeNdc(request.ndc) : null),
      ...copays(copay_options),
      determination_details: { is_on_formulary, is_explicit_plan_exclusion },
      has_active_prior_auth: false,
      ...PHARMACY_FORMULARY_ANSWER,
      // The forced answer stands, but a medical-benefit drug is still named as one.
      benefit_type: drug?.benefit ?? 'pharmacy',
      hcpcs_code: drug?.hcpcs_code ?? null,
    };
  }

  private decide(input: PriorAuthSubmissionInput): SimulatedDecision {
    return this.formularyDecision(input) ?? this.criteriaDecision(input);
  }

  private formularyDecision(input: PriorAuthSubmissionInput): SimulatedDecision | undefined {
    const drug = this.catalog.findDrug(input.drug);
    const plan = input.plan ? this.catalog.findPlan(input.plan.plan_id)?.plan : undefined;
    const entry = drug && plan ? this.catalog.formularyEntry(plan.formulary_id, drug.id) : undefined;
    // A medical-benefit drug is judged on the plan's medical policy: its criteria, never a formulary.
    if (drug && plan && !entry && drug.benefit === 'pharmacy')
      return { result: 'denied', detail_code: 'formulary_alternative_preferred', unmet: [] };
    if (entry?.status === 'excluded') return { result: 'denied', detail_code: 'plan_exclusion', unmet: [] };
    if (entry?.status === 'covered' && !entry.prior_authorization_required) {
      return { result: 'approved', detail_code: 'prior_auth_not_required', unmet: [] };
    }
    return undefined;
  }

  private criteriaDecision(input: PriorAuthSubmissionInput): SimulatedDecision {
    const drug = this.catalog.findDrug(input.drug);
    const plan = input.plan ? this.catalog.findPlan(input.plan.plan_id)?.plan : undefined;
    if (input.criteria.length === 0)
      return { result: 'other', detail_code: 'more_information_required', unmet: [] };

    const unmet = input.criteria.filter((criterion) => criterion.answer !== 'yes');
    if (unmet.length === 0) return { result: 'approved', detail_code: 'approval', unmet: [] };
    const stepTherapyIds = new Set(
      (drug ? this.catalog.criteriaFor(drug, plan) : [])
        .filter((criterion) => criterion.check.kind === 'prior_therapy')
        .map((criterion) => criterion.id),
    );
    const stepTherapyUnmet = unmet.some(
      (criterion) => criterion.answer === 'no' && stepTherapyIds.has(criterion.id),
    );
    return {
      result: 'denied',
      detail_code: stepTherapyUnmet ? 'step_therapy_criteria_not_met' : 'medical_necessity_criteria_not_met',
      unmet: unmet.map((criterion) => criterion.question),
    };
  }
}

function notCovered(
  requested: string,
  ndc: string | null,
  detailCode: string,
  isExplicitPlanExclusion: boolean,
): DrugCoverage {
  return {
    ...drugWithoutFormularyTerms(requested, ndc),
    coverage_detail_code: detailCode,
    determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: isExplicitPlanExclusion },
  };
}

/**
 * Every sandbox plan's medical policy covers infusions with prior authorization; the cost share is
 * the medical benefit's (office visit and infusion coinsurance), which no pharmacy copay describes.
 */
function medicalBenefit(requested: string, drug: CatalogDrug): DrugCoverage {
  return {
    ...drugWithoutFormularyTerms(requested, drug.ndc),
    coverage: 'covered',
    coverage_detail_code: 'medical_benefit',
    prior_authorization_required: 'yes',
    benefit_type: 'medical',
    hcpcs_code: drug.hcpcs_code,
  };
}

/**
 * "No copay" means nothing to pay, as in the anchor's `__no_copay` cases: $0 options are left out, and
 * `copay` is the 30-day amount when there is one.
 */
function copays(options: CopayOption[]): Pick<DrugCoverage, 'copay' | 'copay_options'> {
  const payable = options.filter((option) => option.amount_cents > 0).map((option) => ({ ...option }));
  const monthly = payable.find((option) => option.supply_duration_days === 30) ?? payable[0];
  return { copay: monthly ? { ...monthly } : null, copay_options: payable };
}

/** The plan year that answers the status: this year's, last year's when it ended, next year's when it has not begun. */
function coverageDates(
  coverageStatus: BenefitsOutcome['coverage_status'],
  year: number,
): BenefitsOutcome['coverage_dates'] {
  if (coverageStatus === 'covered') return calendarPlanYear(year);
  if (coverageStatus === 'coverage_expired') return calendarPlanYear(year - 1);
  if (coverageStatus === 'coverage_not_started') return calendarPlanYear(year + 1);
  return null;
}

function detailText(detailCode: string, unmet: string[]): string {
  const text = DETAIL_TEXTS[detailCode] ?? `The payer's determination: ${detailCode.replace(/_/g, ' ')}.`;
  return unmet.length > 0 ? `${text} Not shown: ${unmet.join(' ')}` : text;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Half the requested quantity; a single unit cannot be split, so it stays whole (and its period is halved). */
function partialQuantity(quantity: number): number {
  return quantity >= 2 ? Math.floor(quantity / 2) : quantity;
}

function prescribedDrug(request: PriorAuthorizationRequest): DrugRequest {
  const { drug_name, ndc, dosage, quantity } = request.prescription;
  return { name: drug_name, ndc, dosage, quantity };
}

function exchangeSubmission(input: PriorAuthExchangeInput): PriorAuthSubmissionInput {
  return {
    caseId: input.caseId,
    plan: input.plan,
    drug: prescribedDrug(input.request),
    urgency: input.urgency,
    criteria: input.criteria,
  };
}

/** One reference per case, so a retried submission names the request the payer already holds. */
function exchangeReference(caseId: string): string {
  return `PA-${createHash('sha256').update(caseId).digest('hex').slice(0, 10).toUpperCase()}`;
}

/** The same submission always hashes to the same reference, so a retried submit activity does not fork. */
function payerReference(input: PriorAuthSubmissionInput): string {
  const digest = createHash('sha256').update(canonicalJson(input)).digest('hex');
  return `PA-${digest.slice(0, 10).toUpperCase()}`;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, nested: unknown) =>
    nested && typeof nested === 'object' && !Array.isArray(nested)
      ? Object.fromEntries(Object.entries(nested).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : nested,
  );
}
