import { createHash } from 'node:crypto';

import type { Diagnosis, DrugRequest, PlanType } from '../cases/case-model';
import type {
  CatalogDrug,
  CatalogPayer,
  CatalogPlan,
  CopayOption,
  CriterionCheck,
  CriterionDefinition,
  MockDrugCoverage,
} from './payer-catalog';
import { normalizeName, normalizeNdc, PayerCatalog, payerCatalog } from './payer-catalog';
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
  ResolvedPlan,
} from './payer-connector';

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

const GOVERNMENT_PLAN_TYPES: readonly PlanType[] = ['medicare', 'medicare_advantage', 'medicaid', 'tricare'];

const DEFAULT_DETAIL_CODES: Record<PriorAuthResult, string> = {
  approved: 'approval',
  denied: 'medical_necessity_criteria_not_met',
  other: 'more_information_required',
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
};

const AUTHORIZATION_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

interface PlanMatch {
  payer: CatalogPayer;
  plan: CatalogPlan;
  resolved: ResolvedPlan;
}

type Resolution = { resolved: true; match: PlanMatch } | { resolved: false; reason: string };

/** What identifies a member's plan, whether typed in as discrete data or read off a card. */
interface PlanClues {
  payerName?: string;
  /** The whole card, searched for a payer or plan name when no labelled line gives one. */
  cardText?: string;
  memberId?: string;
  bin?: string;
  pcn?: string;
  planType?: PlanType;
  planText?: string;
}

export interface PayerSimulatorOptions {
  catalog?: PayerCatalog;
  now?: () => Date;
}

/**
 * The local payer: answers eligibility, drug coverage and prior authorization from the shipped catalog.
 * Every answer derives from the input and the catalog alone (the clock only stamps decisions), so an
 * activity retried by Temporal gets the same answer.
 */
export class PayerSimulator implements PayerConnector {
  private readonly catalog: PayerCatalog;
  private readonly now: () => Date;

  constructor(options: PayerSimulatorOptions = {}) {
    this.catalog = options.catalog ?? payerCatalog();
    this.now = options.now ?? (() => new Date());
  }

  async resolvePlan(insurance: InsuranceEvidence): Promise<PlanResolution> {
    const resolution = this.resolve(insurance);
    return resolution.resolved ? { resolved: true, plan: resolution.match.resolved } : resolution;
  }

  async checkBenefits(input: BenefitsCheckInput): Promise<BenefitsCheck> {
    if (input.mockStatus === 'failed') return { kind: 'failed', error: { ...this.catalog.mockFailure } };
    const resolution = this.resolve(input.insurance);
    if (input.mockCase) return this.mockedBenefits(input.mockCase, resolution, input.drugs);
    if (!resolution.resolved) return { kind: 'inconclusive', reason: resolution.reason };

    const memberId = resolution.match.resolved.member_id.toUpperCase();
    const memberCase = MEMBER_ID_SUFFIX_CASES.find(([suffix]) => memberId.endsWith(suffix));
    if (memberCase) return this.mockedBenefits(memberCase[1], resolution, input.drugs);

    const drugs = input.drugs.map((drug) => this.coverage(resolution.match.plan, drug));
    return { kind: 'completed', outcome: this.outcome(resolution.match, 'covered', drugs) };
  }

  async prefillPriorAuthorization(input: PriorAuthPrefillInput): Promise<PriorAuthPrefill> {
    const drug = this.catalog.findDrug(input.drug);
    const plan = input.plan ? this.catalog.findPlan(input.plan.plan_id)?.plan : undefined;
    if (!drug) return { coverage: null, criteria: [] };
    const record = clinicalRecord(input);
    return {
      coverage: plan ? this.coverage(plan, input.drug) : null,
      criteria: this.applicableCriteria(drug, plan).map((criterion) => answerCriterion(criterion, record)),
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
    return {
      result: decision.result,
      detail_code: decision.detail_code,
      detail: detailText(decision.detail_code, decision.unmet),
      payer_reference: input.payer_reference,
      decided_at: now.toISOString(),
      authorization_start_date: approved ? isoDate(now) : null,
      authorization_expiration: approved
        ? isoDate(new Date(now.getTime() + AUTHORIZATION_DAYS * DAY_MS))
        : null,
    };
  }

  private resolve(insurance: InsuranceEvidence): Resolution {
    if (insurance.content) {
      const { content } = insurance;
      return this.match({
        payerName: content.payer,
        memberId: content.member_id,
        bin: content.rx_bin,
        pcn: content.rx_pcn,
        planType: content.plan_type,
      });
    }
    if (insurance.cardTexts.some((text) => text.trim()))
      return this.match(readCard(insurance.cardTexts.join('\n')));
    return {
      resolved: false,
      reason: 'No insurance data was given: neither discrete insurance data nor a card.',
    };
  }

  private match(clues: PlanClues): Resolution {
    const payer =
      (clues.payerName ? this.catalog.findPayerNamedIn(clues.payerName) : undefined) ??
      (clues.bin ? this.catalog.findPayerByBin(clues.bin) : undefined) ??
      (clues.cardText ? this.catalog.findPayerNamedIn(clues.cardText) : undefined);
    if (!payer) {
      return {
        resolved: false,
        reason: 'No payer in the sandbox catalog matches the payer name or RxBIN given.',
      };
    }
    const memberId = clues.memberId?.trim();
    if (!memberId) return { resolved: false, reason: 'The insurance data has no member ID.' };
    const plan = choosePlan(payer, clues);
    if (typeof plan === 'string') return { resolved: false, reason: plan };
    return {
      resolved: true,
      match: {
        payer,
        plan,
        resolved: {
          payer_id: payer.id,
          payer_name: payer.name,
          plan_id: plan.id,
          plan_name: plan.name,
          plan_type: plan.plan_type,
          plan_fund_source: GOVERNMENT_PLAN_TYPES.includes(plan.plan_type) ? 'government' : 'commercial',
          bin: payer.bin,
          pcn: plan.pcn,
          pharmacy_benefit_manager_name: payer.pharmacy_benefit_manager_name,
          member_id: memberId,
        },
      },
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
    // Accumulators describe active coverage; a member not found or not covered has none to report.
    const balances = match && coverageStatus === 'covered' ? match.plan : null;
    return {
      coverage_status: coverageStatus,
      coverage_type: match?.plan.plan_type ?? null,
      plan_fund_source: match?.resolved.plan_fund_source ?? null,
      pharmacy_benefit_manager_name: match?.payer.pharmacy_benefit_manager_name ?? null,
      payer_name: match?.payer.name ?? null,
      plan_name: match?.plan.name ?? null,
      bin: match?.payer.bin ?? null,
      pcn: match?.plan.pcn ?? null,
      deductible: balances && withRemaining(balances.deductible),
      out_of_pocket: balances && withRemaining(balances.out_of_pocket),
      drugs,
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
      prior_authorization_required: entry.prior_authorization_required ? 'yes' : 'no',
      step_therapy_required: stepTherapy,
      quantity_limit: entry.quantity_limit,
      ...copays(entry.copays),
      determination_details: { is_on_formulary: true, is_explicit_plan_exclusion: false },
      has_active_prior_auth: false,
    };
  }

  private mockedCoverage(request: DrugRequest, template: MockDrugCoverage): DrugCoverage {
    const { is_on_formulary, is_explicit_plan_exclusion, copay_options, ...coverage } = template;
    const ndc = this.catalog.findDrug(request)?.ndc ?? (request.ndc ? normalizeNdc(request.ndc) : null);
    return {
      ...coverage,
      drug: request.name ?? request.ndc ?? '',
      ndc,
      ...copays(copay_options),
      determination_details: { is_on_formulary, is_explicit_plan_exclusion },
      has_active_prior_auth: false,
    };
  }

  /** Step-therapy criteria apply only where the plan's formulary asks for step therapy on the drug. */
  private applicableCriteria(drug: CatalogDrug, plan: CatalogPlan | undefined): CriterionDefinition[] {
    const criteria = this.catalog.criteriaFor(drug);
    const entry = plan && this.catalog.formularyEntry(plan.formulary_id, drug.id);
    if (entry?.status !== 'covered' || entry.step_therapy.length > 0) return criteria;
    return criteria.filter((criterion) => criterion.check.kind !== 'prior_therapy');
  }

  private decide(input: PriorAuthSubmissionInput): {
    result: PriorAuthResult;
    detail_code: string;
    unmet: string[];
  } {
    const drug = this.catalog.findDrug(input.drug);
    const plan = input.plan ? this.catalog.findPlan(input.plan.plan_id)?.plan : undefined;
    const entry = drug && plan ? this.catalog.formularyEntry(plan.formulary_id, drug.id) : undefined;
    if (drug && plan && !entry)
      return { result: 'denied', detail_code: 'formulary_alternative_preferred', unmet: [] };
    if (entry?.status === 'excluded') return { result: 'denied', detail_code: 'plan_exclusion', unmet: [] };
    if (entry?.status === 'covered' && !entry.prior_authorization_required) {
      return { result: 'approved', detail_code: 'prior_auth_not_required', unmet: [] };
    }
    if (input.criteria.length === 0)
      return { result: 'other', detail_code: 'more_information_required', unmet: [] };

    const unmet = input.criteria.filter((criterion) => criterion.answer !== 'yes');
    if (unmet.length === 0) return { result: 'approved', detail_code: 'approval', unmet: [] };
    const stepTherapyIds = new Set(
      (drug ? this.catalog.criteriaFor(drug) : [])
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
    drug: requested,
    ndc,
    coverage: 'not_covered',
    coverage_detail_code: detailCode,
    tier: null,
    prior_authorization_required: 'not_applicable',
    step_therapy_required: false,
    quantity_limit: null,
    copay: null,
    copay_options: [],
    determination_details: { is_on_formulary: false, is_explicit_plan_exclusion: isExplicitPlanExclusion },
    has_active_prior_auth: false,
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

function withRemaining(balance: { total_cents: number; met_cents: number }) {
  return {
    total_cents: balance.total_cents,
    met_cents: balance.met_cents,
    remaining_cents: Math.max(0, balance.total_cents - balance.met_cents),
  };
}

function detailText(detailCode: string, unmet: string[]): string {
  const text = DETAIL_TEXTS[detailCode] ?? `The payer's determination: ${detailCode.replace(/_/g, ' ')}.`;
  return unmet.length > 0 ? `${text} Not shown: ${unmet.join(' ')}` : text;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
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

// ---------------------------------------------------------------------------------------------------
// Plan resolution from card text

const CARD_FIELDS = {
  payerName:
    /^[ \t]*(?:payer|insurer|carrier|health[ \t]*plan|insurance(?:[ \t]*company)?)(?:[ \t]*name)?[ \t]*:[ \t]*(.+?)[ \t]*$/im,
  planText: /^[ \t]*(?:plan|coverage|product)(?:[ \t]*(?:type|name))?[ \t]*:[ \t]*(.+?)[ \t]*$/im,
  // A member id holds a digit, so "Member Services: …" or "Member Name: …" never passes for one.
  memberId:
    /\b(?:member|subscriber)(?:[ \t]*(?:id|#|no\.?|number))*[ \t]*[:#]?[ \t]*([a-z0-9-]*\d[a-z0-9-]*)/i,
  bareId: /^[ \t]*id(?:[ \t]*(?:#|no\.?|number))?[ \t]*[:#][ \t]*([a-z0-9-]*\d[a-z0-9-]*)/im,
  bin: /\b(?:rx[ \t]*)?bin(?:[ \t]*(?:#|no\.?|number))?[ \t]*:?[ \t]*(\d{6})\b/i,
  pcn: /\b(?:rx[ \t]*)?pcn(?:[ \t]*#)?[ \t]*:?[ \t]*([a-z0-9-]+)/i,
};

/** Reads the labelled lines of an insurance card ("Payer: …", "Member ID: …", "RxBIN: …", "Plan: …"). */
function readCard(text: string): PlanClues {
  const field = (pattern: RegExp) => pattern.exec(text)?.[1];
  const planText = field(CARD_FIELDS.planText);
  return {
    payerName: field(CARD_FIELDS.payerName),
    cardText: text,
    memberId: field(CARD_FIELDS.memberId) ?? field(CARD_FIELDS.bareId),
    bin: field(CARD_FIELDS.bin),
    pcn: field(CARD_FIELDS.pcn),
    planType: planTypeIn(planText ?? text),
    planText: planText ?? text,
  };
}

const PLAN_TYPE_WORDS: ReadonlyArray<readonly [RegExp, PlanType]> = [
  [/medicare[\s-]*advantage|\bmapd\b|\bpart[\s-]*c\b/i, 'medicare_advantage'],
  [/medicare|\bpart[\s-]*d\b|\bpdp\b/i, 'medicare'],
  [/medicaid|\bchip\b/i, 'medicaid'],
  [/tricare/i, 'tricare'],
  [/commercial|employer|marketplace|\b(?:ppo|hmo|epo|pos|hdhp)\b/i, 'commercial'],
];

function planTypeIn(text: string): PlanType | undefined {
  return PLAN_TYPE_WORDS.find(([pattern]) => pattern.test(text))?.[1];
}

const MEDICARE_TYPES: readonly PlanType[] = ['medicare', 'medicare_advantage'];

/** The member's plan among the payer's, or a sentence saying why none fits. */
function choosePlan(payer: CatalogPayer, clues: PlanClues): CatalogPlan | string {
  const pcn = clues.pcn?.trim().toUpperCase();
  const byPcn = pcn ? payer.plans.find((plan) => plan.pcn === pcn) : undefined;
  if (byPcn) return byPcn;
  const planText = clues.planText ? normalizeName(clues.planText) : '';
  const byName = payer.plans.find((plan) => ` ${planText} `.includes(` ${normalizeName(plan.name)} `));
  if (byName) return byName;

  const planType = clues.planType;
  if (planType && planType !== 'other') {
    // Members often call a Medicare Advantage plan just "Medicare", and the reverse.
    const byType =
      payer.plans.find((plan) => plan.plan_type === planType) ??
      (MEDICARE_TYPES.includes(planType)
        ? payer.plans.find((plan) => MEDICARE_TYPES.includes(plan.plan_type))
        : undefined);
    return byType ?? `${payer.name} has no ${planType.replace(/_/g, ' ')} plan in the sandbox catalog.`;
  }
  return payer.plans.find((plan) => plan.plan_type === 'commercial') ?? payer.plans[0]!;
}

// ---------------------------------------------------------------------------------------------------
// Prior-authorization criteria answered from the clinical record

type Answer = 'yes' | 'no';

interface Finding {
  answer: Answer;
  source: string;
}

interface Reading {
  answer: Answer;
  excerpt: string;
}

/** Free text to search, with a label saying where it came from. */
interface LabelledText {
  label: string;
  text: string;
}

interface ClinicalRecord {
  diagnoses: Diagnosis[];
  evidence: LabelledText[];
  questionnaireItems: Array<{ question: string; answer: string }>;
  visitNotes: LabelledText[];
}

/** How one kind of criterion reads each part of the record. */
interface CriterionReader {
  /** Words that make a questionnaire question about this criterion. */
  terms: string[];
  fromDiagnoses(diagnoses: Diagnosis[]): Finding[];
  fromText(text: string): Reading[];
  /** The answer to a question about this criterion when it is not a plain yes or no ("8.1", "6 months"). */
  fromAnswer(answer: string): Reading | null;
}

function clinicalRecord(input: PriorAuthPrefillInput): ClinicalRecord {
  return {
    diagnoses: input.diagnoses,
    evidence: input.evidence.map((item) => ({
      label: `evidence "${item.title}"`,
      text: flattenContent(item.content),
    })),
    questionnaireItems: input.questionnaires.flatMap((questionnaire) => questionnaire.questions),
    visitNotes: input.visitNotes.map((note) => ({ label: 'visit note', text: note.content })),
  };
}

/** Evidence as "key value; key value" text, which reads better in a source than JSON does. */
function flattenContent(value: unknown): string {
  if (Array.isArray(value)) return value.map(flattenContent).join('; ');
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, nested]) => `${key.replace(/_/g, ' ')} ${flattenContent(nested)}`)
      .join('; ');
  }
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Any supporting finding answers yes; otherwise any contradicting one answers no; otherwise the record
 * is silent and the answer is unknown. Sources are searched in a fixed order so the cited one is stable.
 */
function answerCriterion(criterion: CriterionDefinition, record: ClinicalRecord): CriterionAnswer {
  const reader = readerFor(criterion.check);
  const fromTexts = ({ label, text }: LabelledText): Finding[] =>
    reader
      .fromText(text)
      .map((reading) => ({ answer: reading.answer, source: `${label}: "${reading.excerpt}"` }));
  const findings: Finding[] = [
    ...reader.fromDiagnoses(record.diagnoses),
    ...record.evidence.flatMap(fromTexts),
    ...record.questionnaireItems.flatMap((item) => questionnaireFindings(reader, item)),
    ...record.visitNotes.flatMap(fromTexts),
  ];
  const decisive =
    findings.find((finding) => finding.answer === 'yes') ?? findings.find((f) => f.answer === 'no');
  return {
    id: criterion.id,
    question: criterion.question,
    answer: decisive?.answer ?? 'unknown',
    source: decisive?.source ?? null,
  };
}

function questionnaireFindings(
  reader: CriterionReader,
  item: { question: string; answer: string },
): Finding[] {
  const source = `questionnaire: "${item.question}" → "${item.answer}"`;
  if (!reader.terms.some((term) => wordPattern(term).test(item.question))) {
    return reader.fromText(item.answer).map((reading) => ({ answer: reading.answer, source }));
  }
  const answer = polarAnswer(item.answer) ?? reader.fromAnswer(item.answer)?.answer;
  return answer ? [{ answer, source }] : [];
}

function polarAnswer(answer: string): Answer | undefined {
  if (/^\s*(?:yes|y|true)\b/i.test(answer)) return 'yes';
  if (/^\s*(?:no|n|false)\b/i.test(answer)) return 'no';
  return undefined;
}

function readerFor(check: CriterionCheck): CriterionReader {
  switch (check.kind) {
    case 'diagnosis':
      return diagnosisReader(check);
    case 'lab_value':
      return labValueReader(check);
    case 'prior_therapy':
      return priorTherapyReader(check);
  }
}

function diagnosisReader(check: Extract<CriterionCheck, { kind: 'diagnosis' }>): CriterionReader {
  const prefixes = check.code_prefixes.map(compactCode);
  const codes = check.code_prefixes.map(escapeRegExp).join('|');
  const mention = new RegExp(
    `(?<![a-z0-9])(?:${codes})[0-9a-z.]*|${check.terms.map(boundedTerm).join('|')}`,
    'i',
  );
  const read = (text: string): Reading | null => {
    const found = mention.exec(text);
    return found ? { answer: 'yes', excerpt: tidy(found[0]) } : null;
  };
  return {
    terms: check.terms,
    fromDiagnoses(diagnoses) {
      const matching = diagnoses.find((diagnosis) =>
        prefixes.some((prefix) => compactCode(diagnosis.code).startsWith(prefix)),
      );
      if (matching) return [{ answer: 'yes', source: `diagnosis ${matching.code}` }];
      // The diagnoses are the request's own statement of what is being treated, so none matching is a no.
      if (diagnoses.length === 0) return [];
      return [
        { answer: 'no', source: `diagnoses ${diagnoses.map((diagnosis) => diagnosis.code).join(', ')}` },
      ];
    },
    fromText: (text) => {
      const reading = read(text);
      return reading ? [reading] : [];
    },
    fromAnswer: read,
  };
}

function labValueReader(check: Extract<CriterionCheck, { kind: 'lab_value' }>): CriterionReader {
  // A comparison sign between label and number means a goal ("A1c < 7"), not a result; a digit glued to
  // letters is part of a name (the 1 of "A1c"), not a value.
  const result = new RegExp(
    `(?:${check.labels.map(boundedTerm).join('|')})[^0-9\\n<>≤≥]{0,25}?(?<![a-z0-9.])(\\d+(?:\\.\\d+)?)(?:\\s*(?:%|[a-zµ]+/[a-z0-9²µ]+))?`,
    'gi',
  );
  const judge = (value: number): Answer => (value >= check.minimum ? 'yes' : 'no');
  return {
    terms: check.labels,
    fromDiagnoses: () => [],
    fromText: (text) =>
      [...text.matchAll(result)].map((found) => ({
        answer: judge(Number(found[1])),
        excerpt: tidy(found[0]),
      })),
    fromAnswer(answer) {
      const value = /\d+(?:\.\d+)?/.exec(answer);
      return value ? { answer: judge(Number(value[0])), excerpt: tidy(answer) } : null;
    },
  };
}

const DURATION = String.raw`(\d+(?:\.\d+)?)\s*(years?|yrs?|months?|mos?|weeks?|wks?)(?![a-z])`;

function priorTherapyReader(check: Extract<CriterionCheck, { kind: 'prior_therapy' }>): CriterionReader {
  const drug = `(?:${check.drugs.map(boundedTerm).join('|')})`;
  const negated = new RegExp(
    String.raw`(?:(?:never|not|n't)\s+(?:(?:yet|previously|been|ever)\s+)*(?:tried|taken|used|received|started|on)|no\s+(?:prior|previous|history of|trial of|trial with))\s+(?:[\w-]+\s+){0,2}?` +
      drug,
    'i',
  );
  // The duration may follow the drug ("metformin 1 g daily for 6 months") or lead ("6 months of metformin").
  const durationAfter = new RegExp(`${drug}(?:[^.;\\n]|\\.(?=\\d)){0,40}?${DURATION}`, 'i');
  const durationBefore = new RegExp(
    String.raw`${DURATION}\s+(?:of|on|with)\s+(?:[\w-]+\s+){0,2}?${drug}`,
    'i',
  );
  const durationAlone = new RegExp(DURATION, 'i');
  const mention = new RegExp(drug, 'i');
  const minimumMonths = check.minimum_months;

  const byDuration = (found: RegExpExecArray): Reading => ({
    answer: months(Number(found[1]), found[2]!) >= (minimumMonths ?? 0) ? 'yes' : 'no',
    excerpt: tidy(found[0]),
  });
  const read = (text: string): Reading | null => {
    const negation = negated.exec(text);
    if (negation) return { answer: 'no', excerpt: tidy(negation[0]) };
    const duration = durationAfter.exec(text) ?? durationBefore.exec(text);
    if (duration) return byDuration(duration);
    // Without a stated duration, a mention proves the trial only when the plan asks for no minimum.
    const mentioned = mention.exec(text);
    return mentioned && minimumMonths === undefined ? { answer: 'yes', excerpt: tidy(mentioned[0]) } : null;
  };
  return {
    terms: check.drugs,
    fromDiagnoses: () => [],
    fromText: (text) => {
      const reading = read(text);
      return reading ? [reading] : [];
    },
    fromAnswer(answer) {
      const reading = read(answer);
      if (reading) return reading;
      const duration = durationAlone.exec(answer);
      return duration ? byDuration(duration) : null;
    },
  };
}

function months(amount: number, unit: string): number {
  const lower = unit.toLowerCase();
  if (lower.startsWith('y')) return amount * 12;
  if (lower.startsWith('w')) return amount / 4;
  return amount;
}

function compactCode(code: string): string {
  return code.replace(/[^a-z0-9]/gi, '').toUpperCase();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A catalog term as a pattern matching whole words, tolerant of spaces versus hyphens. */
function boundedTerm(term: string): string {
  return `(?<![a-z0-9])${escapeRegExp(term).replace(/[\s-]+/g, '[\\s-]+')}(?![a-z0-9])`;
}

function wordPattern(term: string): RegExp {
  return new RegExp(boundedTerm(term), 'i');
}

function tidy(excerpt: string): string {
  return excerpt.replace(/\s+/g, ' ').trim();
}
