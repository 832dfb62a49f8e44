import { calendarDate, daysBetween } from './clinical-dates';
import type { CriterionResult, EvidenceCitation, ResolvedDiagnosis } from './clinical-model';
import type {
  AgeCheck,
  AgeLimit,
  Comparator,
  CriterionCheck,
  DiagnosisCheck,
  DocumentationCheck,
  MeasurementCheck,
  PriorTherapyCheck,
  TrialLength,
} from './criteria';
import type { ClinicalCatalog } from './criteria-catalog';
import type { ClinicalFacts } from './evidence-extractor';
import { isInFamily } from './icd10';
import { formatNumber, MEASUREMENT_LABELS } from './measurements';
import type { MeasurementFact, ValueRange } from './measurements';
import type { DayRange, TherapyFact } from './therapy-history';

/** How each kind of criterion is checked against a record's facts, and the verdict a check gives. */

export type Status = CriterionResult['status'];

/** Why a criterion failed; diagnosis reasons of alternative paths merge into one sentence. */
export type Reason = { kind: 'diagnosis'; label: string } | { kind: 'sentence'; text: string };

export interface LeafVerdict {
  status: Status;
  evidence: EvidenceCitation[];
  /** Set when the status is not_met. */
  reason?: Reason;
  /** The value read, for a group's `unmet_reason` ("26.1 kg/m²"). */
  value?: string;
}

export interface EvaluationContext {
  asOf: string | null;
  ageInMonths: number | null;
  diagnoses: ResolvedDiagnosis[];
  facts: ClinicalFacts;
  catalog: ClinicalCatalog;
}

export function evaluateLeaf(check: CriterionCheck, context: EvaluationContext): LeafVerdict {
  switch (check.kind) {
    case 'diagnosis':
      return evaluateDiagnosis(check, context);
    case 'age':
      return evaluateAge(check, context);
    case 'measurement':
      return evaluateMeasurement(check, context);
    case 'prior_therapy':
      return evaluatePriorTherapy(check, context);
    case 'documentation':
      return evaluateDocumentation(check, context);
  }
}

// --- diagnosis

function citeDiagnosis(diagnosis: ResolvedDiagnosis): EvidenceCitation {
  const submitted = [diagnosis.input.code?.trim(), diagnosis.input.description?.trim()]
    .filter(Boolean)
    .join(' ');
  return {
    source: diagnosis.code ? `diagnosis ${diagnosis.code}` : 'diagnosis (no code)',
    excerpt: submitted,
  };
}

/**
 * Diagnoses are a required field, so the request's list is its full statement of what is being treated:
 * a required family missing from it is not met. An unmapped description might be that condition, though,
 * so then the answer is unknown.
 */
function evaluateDiagnosis(check: DiagnosisCheck, { diagnoses }: EvaluationContext): LeafVerdict {
  const matching = diagnoses.filter(
    (diagnosis) =>
      diagnosis.code && check.code_prefixes.some((prefix) => isInFamily(diagnosis.code as string, prefix)),
  );
  if (matching.length > 0) return { status: 'met', evidence: matching.map(citeDiagnosis) };
  if (diagnoses.some((diagnosis) => diagnosis.resolved_by === 'unresolved')) {
    return { status: 'unknown', evidence: [] };
  }
  return {
    status: 'not_met',
    evidence: diagnoses.map(citeDiagnosis),
    reason: { kind: 'diagnosis', label: check.label },
  };
}

// --- age

export function completedMonths(dateOfBirth: string, asOf: string): number | null {
  const birth = calendarDate(dateOfBirth);
  if (!birth || birth > asOf) return null;
  const [birthYear, birthMonth, birthDay] = birth.split('-').map(Number) as [number, number, number];
  const [year, month, day] = asOf.split('-').map(Number) as [number, number, number];
  return (year - birthYear) * 12 + (month - birthMonth) - (day < birthDay ? 1 : 0);
}

function limitInMonths(limit: AgeLimit): number {
  return 'years' in limit ? limit.years * 12 : limit.months;
}

function formatAgeLimit(limit: AgeLimit): string {
  return 'years' in limit ? plural(limit.years, 'year') : plural(limit.months, 'month');
}

/** Ages of 90 and over are identifying (HIPAA Safe Harbor), so citations group them. */
function describeAge(months: number): string {
  if (months < 24) return `age ${plural(months, 'month')}`;
  const years = Math.floor(months / 12);
  return years >= 90 ? 'age 90 years or older' : `age ${years} years`;
}

function evaluateAge(check: AgeCheck, { ageInMonths }: EvaluationContext): LeafVerdict {
  if (ageInMonths === null) return { status: 'unknown', evidence: [] };
  const evidence = [{ source: 'patient date of birth', excerpt: describeAge(ageInMonths) }];
  const value = describeAge(ageInMonths);
  if (check.minimum && ageInMonths < limitInMonths(check.minimum)) {
    const text = `The patient is younger than the minimum age of ${formatAgeLimit(check.minimum)}.`;
    return { status: 'not_met', evidence, value, reason: { kind: 'sentence', text } };
  }
  // A maximum counts completed units: "at most 17 years" includes the whole year before the 18th birthday.
  const maximum = check.maximum;
  const aboveMaximum =
    maximum &&
    ('years' in maximum ? Math.floor(ageInMonths / 12) > maximum.years : ageInMonths > maximum.months);
  if (maximum && aboveMaximum) {
    const text = `The patient is older than the maximum age of ${formatAgeLimit(maximum)}.`;
    return { status: 'not_met', evidence, value, reason: { kind: 'sentence', text } };
  }
  return { status: 'met', evidence, value };
}

// --- measurement

function isRecent(date: string | null, maxAgeDays: number | undefined, asOf: string | null): boolean {
  if (maxAgeDays === undefined) return true;
  return date !== null && asOf !== null && daysBetween(date, asOf) <= maxAgeDays;
}

/**
 * Whether every value the range allows meets the threshold (met), none does (not_met), or some do.
 * The PA prefill judges lab values with it too, so both read one record the same way.
 */
export function compareRange(range: ValueRange, comparator: Comparator, threshold: number): Status {
  const { low, high } = range;
  const lowAbove = (strict: boolean) =>
    low !== null && (low.value > threshold || (low.value === threshold && (!strict || !low.inclusive)));
  const highBelow = (strict: boolean) =>
    high !== null && (high.value < threshold || (high.value === threshold && (!strict || !high.inclusive)));
  switch (comparator) {
    case '>=':
      return lowAbove(false) ? 'met' : highBelow(true) ? 'not_met' : 'unknown';
    case '>':
      return lowAbove(true) ? 'met' : highBelow(false) ? 'not_met' : 'unknown';
    case '<=':
      return highBelow(false) ? 'met' : lowAbove(true) ? 'not_met' : 'unknown';
    case '<':
      return highBelow(true) ? 'met' : lowAbove(false) ? 'not_met' : 'unknown';
  }
}

const REQUIREMENT_WORDS: Readonly<Record<Comparator, string>> = {
  '>=': 'at least',
  '>': 'above',
  '<=': 'at most',
  '<': 'below',
};

const SHORTFALL_WORDS: Readonly<Record<Comparator, string>> = {
  '>=': 'is below the required',
  '>': 'is not above the required',
  '<=': 'is above the allowed maximum of',
  '<': 'is not below the required',
};

function measurementReason(check: MeasurementCheck, fact: MeasurementFact): Reason {
  const label = MEASUREMENT_LABELS[check.name];
  const threshold = `${formatNumber(check.threshold)} ${check.unit}`;
  const exact = fact.range.low !== null && fact.range.high !== null;
  const text = exact
    ? `${label} ${fact.display} ${SHORTFALL_WORDS[check.comparator]} ${threshold}.`
    : `${label} is reported as ${fact.display}; the requirement is ${REQUIREMENT_WORDS[check.comparator]} ${threshold}.`;
  return { kind: 'sentence', text };
}

/** The most recent value that decides the check; older values count only when newer ones cannot decide. */
function evaluateMeasurement(check: MeasurementCheck, { facts, asOf }: EvaluationContext): LeafVerdict {
  const candidates = facts.measurements
    .map((fact, order) => ({ fact, order }))
    .filter(({ fact }) => fact.name === check.name && isRecent(fact.date, check.max_age_days, asOf))
    .sort((a, b) => (b.fact.date ?? '').localeCompare(a.fact.date ?? '') || a.order - b.order)
    .map(({ fact }) => fact);
  for (const fact of candidates) {
    const status = compareRange(fact.range, check.comparator, check.threshold);
    if (status === 'unknown') continue;
    const exact = fact.range.low !== null && fact.range.high !== null;
    return {
      status,
      evidence: [fact.citation],
      // Only a value read exactly fills a group's sentence ("BMI 26.1 kg/m² is below …"); a bound would not read.
      ...(exact ? { value: fact.display } : {}),
      ...(status === 'not_met' ? { reason: measurementReason(check, fact) } : {}),
    };
  }
  return { status: 'unknown', evidence: uniqueCitations(candidates.map((fact) => fact.citation)) };
}

// --- prior therapy

const LENGTH_DAYS: Readonly<Record<string, number>> = { days: 1, weeks: 7, months: 30 };

function lengthInDays(length: TrialLength | undefined): number {
  if (!length) return 0;
  const [unit, amount] = Object.entries(length)[0] as [string, number];
  return amount * (LENGTH_DAYS[unit] ?? 1);
}

function formatLength(length: TrialLength): string {
  const [unit, amount] = Object.entries(length)[0] as [string, number];
  return plural(amount, unit.replace(/s$/, ''));
}

function formatDays(days: number): string {
  if (days >= 365 && days % 365 === 0) return plural(days / 365, 'year');
  if (days >= 30 && days % 30 === 0) return plural(days / 30, 'month');
  if (days >= 7 && days % 7 === 0) return plural(days / 7, 'week');
  return plural(days, 'day');
}

function formatDayRange(range: DayRange): string {
  if (range.max === Infinity) return `at least ${formatDays(range.min)}`;
  if (range.min === range.max) return formatDays(range.min);
  return `between ${formatDays(range.min)} and ${formatDays(range.max)}`;
}

/**
 * How one mention of a therapy bears on a trial of at least `requiredDays` (0 when no length is asked):
 * met by a long-enough trial or by an intolerance or contraindication (payers accept either for step
 * therapy); not met by a trial stated too short, or a denied one ("has not tried metformin for 6 months"
 * leaves a 3-month trial possible, so says nothing); otherwise unknown, such as a mention without a
 * length when a length is required. The criteria engine and the PA prefill both judge trials with it.
 */
export function judgeTrial(fact: TherapyFact, requiredDays: number): Status {
  switch (fact.assertion) {
    case 'intolerant':
      return 'met';
    case 'tried':
      if ((fact.duration?.min ?? 0) >= requiredDays) return 'met';
      return fact.duration !== null && fact.duration.max < requiredDays ? 'not_met' : 'unknown';
    case 'not_tried':
      return fact.duration === null || fact.duration.min <= requiredDays ? 'not_met' : 'unknown';
  }
}

/** The trials that meet the check cite it; else a too-short one, else a denied one, explains why not. */
function evaluatePriorTherapy(check: PriorTherapyCheck, { facts }: EvaluationContext): LeafVerdict {
  const terms = new Set(check.therapies.map((therapy) => therapy.toLowerCase()));
  const required = lengthInDays(check.minimum_duration);
  const relevant = facts.therapies.filter((fact) => terms.has(fact.therapy));
  const satisfying = relevant.filter((fact) => judgeTrial(fact, required) === 'met');
  if (satisfying.length > 0) {
    const first = satisfying[0] as TherapyFact;
    return {
      status: 'met',
      evidence: uniqueCitations(satisfying.map((fact) => fact.citation)),
      ...(first.duration ? { value: formatDayRange(first.duration) } : {}),
    };
  }
  const unmet = relevant.filter((fact) => judgeTrial(fact, required) === 'not_met');
  const tooShort = unmet.filter((fact) => fact.assertion === 'tried');
  const denied = unmet.filter((fact) => fact.assertion === 'not_tried');
  const lengthWords = check.minimum_duration ? ` for at least ${formatLength(check.minimum_duration)}` : '';
  const shortest = tooShort[0];
  if (shortest?.duration) {
    const text = `The documented trial of ${check.label} (${formatDayRange(shortest.duration)}) is shorter than the required ${formatLength(check.minimum_duration as TrialLength)}.`;
    return {
      status: 'not_met',
      evidence: uniqueCitations([...tooShort, ...denied].map((fact) => fact.citation)),
      value: formatDayRange(shortest.duration),
      reason: { kind: 'sentence', text },
    };
  }
  if (denied.length > 0) {
    return {
      status: 'not_met',
      evidence: uniqueCitations(denied.map((fact) => fact.citation)),
      reason: { kind: 'sentence', text: `No trial of ${check.label}${lengthWords} is documented.` },
    };
  }
  return { status: 'unknown', evidence: uniqueCitations(relevant.map((fact) => fact.citation)) };
}

// --- documentation

const SENTENCE_END = /[\n.;!?](?!\d)/g;
const NEGATED_MENTION = /\b(?:no|not|denies|denied|without)\s+(?:[a-z]+\s+)?$/i;

/** The sentence around a match, within its line, as written (at most 60 characters either side). */
function excerptAround(text: string, start: number, end: number): string {
  const windowStart = Math.max(0, start - 60);
  let from = windowStart;
  for (const boundary of text.slice(windowStart, start).matchAll(SENTENCE_END)) {
    from = windowStart + (boundary.index ?? 0) + 1;
  }
  if (from === windowStart && windowStart > 0) from = text.indexOf(' ', from) + 1 || start;
  const after = text.slice(end, end + 60);
  const stop = after.search(SENTENCE_END);
  return text.slice(from, stop === -1 ? end + after.length : end + stop).trim();
}

function evaluateDocumentation(
  check: DocumentationCheck,
  { facts, asOf, catalog }: EvaluationContext,
): LeafVerdict {
  const pattern = catalog.documentPattern(check);
  const evidence: EvidenceCitation[] = [];
  for (const document of facts.documents) {
    if (!check.sources.includes(document.kind) || !isRecent(document.date, check.max_age_days, asOf))
      continue;
    const found = [...document.text.matchAll(pattern)].find((match) => {
      const start = match.index ?? 0;
      return !NEGATED_MENTION.test(document.text.slice(Math.max(0, start - 24), start));
    });
    if (found) {
      const start = found.index ?? 0;
      evidence.push({
        source: document.source,
        excerpt: excerptAround(document.text, start, start + found[0].length),
      });
    }
  }
  if (evidence.length > 0) return { status: 'met', evidence };
  return {
    status: 'not_met',
    evidence: [],
    reason: { kind: 'sentence', text: `No ${check.label} is documented.` },
  };
}

// --- citations and wording

export function uniqueCitations(citations: EvidenceCitation[]): EvidenceCitation[] {
  const seen = new Set<string>();
  return citations.filter((citation) => {
    const key = `${citation.source}\u0000${citation.excerpt}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function plural(amount: number, unit: string): string {
  return `${formatNumber(amount)} ${unit}${amount === 1 ? '' : 's'}`;
}
