import { LookAlikeReader } from './ocr-look-alikes';
import type { Questionnaire } from '../cases/case-model';
import type { ClinicalEvidence, ClinicalRecord, EvidenceCitation, ResolvedDiagnosis } from './clinical-model';

/**
 * Turns a clinical record into facts the criteria can be judged on: measured values, therapies tried
 * (or denied), and the documents present. Everything here is a pure function of the record and its
 * `asOf` date; the patterns are compiled once, when the module loads or the vocabulary is built.
 */

export const MEASUREMENT_NAMES = ['bmi', 'a1c', 'ldl', 'eosinophils', 'ige'] as const;
export type MeasurementName = (typeof MEASUREMENT_NAMES)[number];

export interface Bound {
  value: number;
  inclusive: boolean;
}

/** What a source says about a value: exactly it (low equals high), or only one side of a threshold. */
export interface ValueRange {
  low: Bound | null;
  high: Bound | null;
}

export interface MeasurementFact {
  name: MeasurementName;
  /** In the measurement's canonical unit (see `MEASUREMENT_UNITS`). */
  range: ValueRange;
  /** As a clinician reads it: "32.4 kg/m²", "119.9 mg/dL (3.1 mmol/L)", "at least 30 kg/m²". */
  display: string;
  /** YYYY-MM-DD of the source, or null when the source is undated. */
  date: string | null;
  citation: EvidenceCitation;
}

/** A length of time in days; `max` is Infinity for "at least" and the two differ for "since 2024". */
export interface DayRange {
  min: number;
  max: number;
}

export interface TherapyFact {
  /** The vocabulary term mentioned, in lower case: "metformin", "topical corticosteroid". */
  therapy: string;
  assertion: 'tried' | 'not_tried' | 'intolerant';
  /**
   * For `tried`, how long it was taken. For `not_tried`, the length of trial the source denies ("has not
   * tried metformin for 3 months" leaves a shorter trial possible). Null when no length is stated.
   */
  duration: DayRange | null;
  date: string | null;
  citation: EvidenceCitation;
}

export type DocumentKind = 'visit_note' | 'evidence' | 'questionnaire';

/** One item of the record as searchable text, for documentation criteria. */
export interface RecordDocument {
  kind: DocumentKind;
  source: string;
  date: string | null;
  text: string;
}

export interface ClinicalFacts {
  measurements: MeasurementFact[];
  therapies: TherapyFact[];
  documents: RecordDocument[];
}

// ---------------------------------------------------------------------------------------------------
// Dates

const DAY_MS = 86_400_000;

/** The YYYY-MM-DD a date or date-time starts with, or null when it is not a calendar date. */
export function calendarDate(text: string): string | null {
  const found = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!found) return null;
  const [, year, month, day] = found as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day)
    ? `${year}-${month}-${day}`
    : null;
}

/** Days between two calendar dates (positive when `later` is after `earlier`). */
export function daysBetween(earlier: string, later: string): number {
  return Math.round((Date.parse(`${later}T00:00:00Z`) - Date.parse(`${earlier}T00:00:00Z`)) / DAY_MS);
}

// ---------------------------------------------------------------------------------------------------
// Measurements

interface UnitReading {
  /** Anchored pattern recognising the unit as written. */
  pattern: RegExp;
  source: string;
  symbol: string;
  /** Null for a unit the value cannot be converted from (an eosinophil percentage needs the white count). */
  toCanonical: ((value: number) => number) | null;
  /** The raw values this unit makes plausible when a number is written without a unit. */
  unitless: readonly [number, number] | null;
}

interface MeasurementSpec {
  name: MeasurementName;
  label: string;
  unit: string;
  aliases: string[];
  readings: UnitReading[];
  plausible: readonly [number, number];
}

function unitReading(
  source: string,
  symbol: string,
  toCanonical: ((value: number) => number) | null,
  unitless: readonly [number, number] | null,
): UnitReading {
  return { pattern: new RegExp(`^(?:${source})$`, 'i'), source, symbol, toCanonical, unitless };
}

const same = (value: number) => value;

const MEASUREMENT_SPECS: readonly MeasurementSpec[] = [
  {
    name: 'bmi',
    label: 'BMI',
    unit: 'kg/m²',
    aliases: ['body mass index', 'bmi'],
    readings: [unitReading(String.raw`kg\s*/\s*m(?:2|²|\^2)`, 'kg/m²', same, [10, 100])],
    plausible: [10, 100],
  },
  {
    name: 'a1c',
    label: 'A1c',
    unit: '%',
    aliases: [
      'hemoglobin a1c',
      'haemoglobin a1c',
      'glycated hemoglobin',
      'glycosylated hemoglobin',
      'hgb a1c',
      'hb a1c',
      'a1c',
    ],
    readings: [
      unitReading('%|percent', '%', same, [3, 25]),
      // IFCC to NGSP master equation.
      unitReading(String.raw`mmol\s*/\s*mol`, 'mmol/mol', (value) => value / 10.929 + 2.15, [20, 250]),
    ],
    plausible: [3, 25],
  },
  {
    name: 'ldl',
    label: 'LDL-C',
    unit: 'mg/dL',
    aliases: [
      'low density lipoprotein cholesterol',
      'low density lipoprotein',
      'ldl cholesterol',
      'ldl c',
      'ldl',
    ],
    readings: [
      unitReading(String.raw`mg\s*/\s*dl`, 'mg/dL', same, [15, 1000]),
      unitReading(String.raw`mmol\s*/\s*l`, 'mmol/L', (value) => value * 38.67, [0.3, 15]),
    ],
    plausible: [10, 1000],
  },
  {
    name: 'eosinophils',
    label: 'Blood eosinophil count',
    unit: 'cells/µL',
    aliases: [
      'absolute eosinophil count',
      'blood eosinophil count',
      'eosinophil count',
      'blood eosinophils',
      'eosinophils',
      'eosinophil',
      'eos',
      'aec',
    ],
    readings: [
      unitReading(
        String.raw`(?:cells\s*)?/\s*(?:µ|μ|u|mc)l|(?:cells\s*)?/\s*mm(?:3|³)`,
        'cells/µL',
        same,
        [5, 20000],
      ),
      unitReading(
        String.raw`(?:(?:x|×|\*)\s*)?10\s*(?:\^|e|\*\*)?\s*(?:9|⁹)\s*/\s*l|g\s*/\s*l`,
        'x10^9/L',
        (value) => value * 1000,
        [0, 5],
      ),
      unitReading(
        String.raw`(?:(?:x|×|\*)\s*)?10\s*(?:\^|e|\*\*)?\s*(?:3|³)\s*/\s*(?:µ|μ|u|mc)l|k\s*/\s*(?:µ|μ|u|mc)l`,
        'x10^3/µL',
        (value) => value * 1000,
        null,
      ),
      unitReading('%', '%', null, null),
    ],
    plausible: [0, 20000],
  },
  {
    name: 'ige',
    label: 'Total IgE',
    unit: 'IU/mL',
    aliases: ['total serum ige', 'total ige', 'serum ige', 'immunoglobulin e', 'ige'],
    readings: [unitReading(String.raw`k?iu\s*/\s*ml|k(?:i)?u\s*/\s*l`, 'IU/mL', same, [0, 50000])],
    plausible: [0, 50000],
  },
];

/** The canonical unit of each measurement: catalog thresholds must be written in it. */
export const MEASUREMENT_UNITS: Readonly<Record<MeasurementName, string>> = Object.fromEntries(
  MEASUREMENT_SPECS.map((spec) => [spec.name, spec.unit]),
) as Record<MeasurementName, string>;

/** How a clinician names each measurement in a sentence ("BMI", "LDL-C"). */
export const MEASUREMENT_LABELS: Readonly<Record<MeasurementName, string>> = Object.fromEntries(
  MEASUREMENT_SPECS.map((spec) => [spec.name, spec.label]),
) as Record<MeasurementName, string>;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A term whose words may be joined by spaces, hyphens, underscores or nothing ("LDL-C", "ldl_c", "LDLC"). */
function flexibleTerm(term: string): string {
  return term
    .toLowerCase()
    .split(/[\s_/+-]+/)
    .map(escapeRegExp)
    .join('[\\s_/+-]*');
}

type Comparison = 'exact' | 'at_least' | 'above' | 'at_most' | 'below';

const SYMBOL_COMPARISONS: Readonly<Record<string, Comparison>> = {
  '>=': 'at_least',
  '=>': 'at_least',
  '≥': 'at_least',
  '>': 'above',
  '<=': 'at_most',
  '=<': 'at_most',
  '≤': 'at_most',
  '<': 'below',
};

/** Comparison words count only right before the number: "BMI of at least 30", not "A1c over the past year". */
const WORD_COMPARISONS: ReadonlyArray<readonly [RegExp, Comparison]> = [
  [/\b(?:at least|greater than or equal to|no less than)\s*$/i, 'at_least'],
  [/\b(?:greater than|more than|above|over|exceed(?:s|ing)?)\s*$/i, 'above'],
  [/\b(?:at most|less than or equal to|no more than)\s*$/i, 'at_most'],
  [/\b(?:less than|below|under)\s*$/i, 'below'],
];

/** Words between a name and a number that mean the number is not this patient's value. */
const NOT_A_RESULT = /,\s*[a-z]|\b(?:goal|target|not|no|pending|unknown|unavailable|n\/a)\b/i;
const GOAL_BEFORE = /\b(?:goal|target)\s*(?:of\s*)?[:=]?\s*$/i;

interface CompiledMeasurement {
  spec: MeasurementSpec;
  pattern: RegExp;
  /** Any of its names, with or without a number after it. */
  named: RegExp;
}

const COMPILED_MEASUREMENTS: readonly CompiledMeasurement[] = MEASUREMENT_SPECS.map((spec) => {
  const aliases = [...spec.aliases].sort((a, b) => b.length - a.length).map(flexibleTerm);
  const units = spec.readings.map((reading) => reading.source).join('|');
  const name = `(?<![a-z0-9])(?:${aliases.join('|')})(?![a-z0-9])`;
  return {
    spec,
    named: new RegExp(name, 'i'),
    pattern: new RegExp(
      name +
        String.raw`(?<filler>[^\d\n.;!?<>≥≤]{0,40}?)(?<symbol>>=|<=|=>|=<|≥|≤|>|<)?\s*(?<value>\d+(?:\.\d+)?)` +
        `(?:[\\s,]*(?<unit>${units})(?![a-z0-9]))?` +
        String.raw`(?<tail>\s*(?:or\s+(?:more|higher|greater|above|over|less|lower|below|under)|\+))?`,
      'gi',
    ),
  };
});

function group(found: RegExpMatchArray, name: string): string | undefined {
  return found.groups?.[name];
}

function comparisonOf(found: RegExpMatchArray): Comparison {
  const tail = group(found, 'tail')?.trim().toLowerCase();
  if (tail) return tail === '+' || /more|higher|greater|above|over/.test(tail) ? 'at_least' : 'at_most';
  const symbol = group(found, 'symbol');
  if (symbol) return SYMBOL_COMPARISONS[symbol] ?? 'exact';
  const filler = group(found, 'filler') ?? '';
  return WORD_COMPARISONS.find(([words]) => words.test(filler))?.[1] ?? 'exact';
}

function rangeOf(value: number, comparison: Comparison): ValueRange {
  switch (comparison) {
    case 'exact':
      return { low: { value, inclusive: true }, high: { value, inclusive: true } };
    case 'at_least':
      return { low: { value, inclusive: true }, high: null };
    case 'above':
      return { low: { value, inclusive: false }, high: null };
    case 'at_most':
      return { low: null, high: { value, inclusive: true } };
    case 'below':
      return { low: null, high: { value, inclusive: false } };
  }
}

const COMPARISON_WORDS: Readonly<Record<Comparison, string>> = {
  exact: '',
  at_least: 'at least ',
  above: 'above ',
  at_most: 'at most ',
  below: 'below ',
};

/** At most two decimals, without trailing zeros: 119.877 → "119.88", 400.0000001 → "400". */
export function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/**
 * Why a name followed by a number gives no value: the words between say it is no result of the
 * patient's (a goal, a test not done), or the number cannot be this measurement's (a unit it is not
 * measured in, a value out of range, such as an A1c whose decimal point OCR lost).
 */
type NoMeasurement = 'not_a_result' | 'no_value';

function readMeasurement(
  compiled: CompiledMeasurement,
  found: RegExpMatchArray,
  text: string,
): Pick<MeasurementFact, 'range' | 'display'> | NoMeasurement {
  const { spec } = compiled;
  const filler = group(found, 'filler') ?? '';
  const start = found.index ?? 0;
  if (NOT_A_RESULT.test(filler) || GOAL_BEFORE.test(text.slice(Math.max(0, start - 16), start)))
    return 'not_a_result';
  const raw = Number(group(found, 'value'));
  const unitText = group(found, 'unit');
  const reading = unitText
    ? spec.readings.find((candidate) => candidate.pattern.test(unitText.trim()))
    : spec.readings.find(({ unitless }) => unitless !== null && raw >= unitless[0] && raw < unitless[1]);
  if (!reading?.toCanonical) return 'no_value';
  const value = Math.round(reading.toCanonical(raw) * 100) / 100;
  if (value < spec.plausible[0] || value > spec.plausible[1]) return 'no_value';
  const comparison = comparisonOf(found);
  const converted = reading !== spec.readings[0];
  return {
    range: rangeOf(value, comparison),
    display:
      `${COMPARISON_WORDS[comparison]}${formatNumber(value)} ${spec.unit}` +
      (converted ? ` (${formatNumber(raw)} ${reading.symbol})` : ''),
  };
}

/** A "no" to "Is the BMI at least 30?" says the BMI is below 30; a "no" to an exact value says nothing. */
function negateRange(range: ValueRange): ValueRange | undefined {
  if (range.low && !range.high)
    return { low: null, high: { value: range.low.value, inclusive: !range.low.inclusive } };
  if (range.high && !range.low)
    return { low: { value: range.high.value, inclusive: !range.high.inclusive }, high: null };
  return undefined;
}

function negatedDisplay(range: ValueRange, unit: string): string {
  const bound = (range.low ?? range.high) as Bound;
  const words = range.low
    ? range.low.inclusive
      ? 'at least'
      : 'above'
    : range.high?.inclusive
      ? 'at most'
      : 'below';
  return `${words} ${formatNumber(bound.value)} ${unit}`;
}

// ICD-10-CM Z68 codes state an adult BMI band; Z68.1 is "19.9 or less" and Z68.41–Z68.45 are wider bands.
const Z68_BANDS: Readonly<Record<string, readonly [number, number | null]>> = {
  '41': [40, 45],
  '42': [45, 50],
  '43': [50, 60],
  '44': [60, 70],
  '45': [70, null],
};

function bmiFromDiagnosis(diagnosis: ResolvedDiagnosis, asOf: string | null): MeasurementFact | undefined {
  const found = diagnosis.code ? /^Z68\.?(\d{1,2})$/.exec(diagnosis.code) : null;
  if (!found) return undefined;
  const digits = found[1] as string;
  const band: readonly [number, number | null] | undefined =
    digits === '1'
      ? [0, 20]
      : /^[23]\d$/.test(digits)
        ? [Number(digits), Number(digits) + 1]
        : Z68_BANDS[digits];
  if (!band) return undefined;
  const [low, high] = band;
  return {
    name: 'bmi',
    range: {
      low: { value: low, inclusive: true },
      high: high === null ? null : { value: high, inclusive: false },
    },
    display: high === null ? `${low} kg/m² or more` : `${low}–${formatNumber(high - 0.1)} kg/m²`,
    date: asOf,
    citation: {
      source: `diagnosis ${diagnosis.code}`,
      excerpt: diagnosis.description ?? diagnosis.code ?? '',
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Therapies

/** What the words around a drug say: intolerance, a trial that happened (mostly failed), none, or a plan. */
type CueKind = 'intolerant' | 'tried' | 'negated' | 'prospective';

const INTOLERANT_CUES = String.raw`intoleran(?:t|ce)|allerg(?:ic|y|ies)|contraindicat(?:ed|ions?)|hypersensitiv(?:e|ity)|(?:could not|couldn't|unable to|did not|didn't|does not|doesn't|cannot|can't) tolerate|not tolerat(?:ed|ing)|poorly tolerated|adverse (?:reactions?|effects?|events?)|side[- ]effects?`;
const TRIAL_CUES = String.raw`fail(?:ed|ure|ing|s)?|inadequate(?:ly)?|insufficient|suboptimal|partial(?:ly)? respon(?:se|ded|sive)|no (?:improvement|response|benefit|relief)|not (?:controlled|responsive|responding|improved|improving|effective)|uncontrolled|refractory|despite|lack of (?:response|efficacy|improvement)|(?:did not|didn't) (?:respond|improve|work|help)|no longer|discontinued|stopped|progressed|ineffective`;
const NEGATED_CUES = String.raw`no|not|never|denies|denied|denying|without|none|nor|neither|hasn't|haven't|hadn't|didn't|doesn't|isn't|wasn't|hasnt|havent|didnt`;
const PROSPECTIVE_CUES = String.raw`start|starting|initiate|initiating|begin|beginning|consider|considering|recommend|recommended|plan(?:s|ned|ning)? to|will (?:start|try|begin|initiate)|candidate for`;

// Alternatives are tried in order at each position, so "no improvement" (tried) wins over "no" (negated).
const PREFIX_CUE = new RegExp(
  `(?<![a-z0-9'])(?:(?<intolerant>${INTOLERANT_CUES})|(?<tried>${TRIAL_CUES})|(?<negated>${NEGATED_CUES})|(?<prospective>${PROSPECTIVE_CUES}))(?![a-z0-9'])`,
  'gi',
);

/** Cues right after the drug: "metformin: none", "methotrexate (not tolerated)", "statin 40 mg - failed". */
const SUFFIX_CUE = new RegExp(
  String.raw`^(?:\s*\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|units?|iu)(?![a-z])[^,;:()\n]{0,20}?)?[\s:,()\-–—]*` +
    String.raw`(?:(?<intolerant>not tolerated|poorly tolerated|intoleran(?:t|ce)|allerg(?:ic|y)|contraindicated|caused [a-z]+|side[- ]effects?|adverse (?:reactions?|effects?|events?)|gi upset)` +
    String.raw`|(?<tried>fail(?:ed|ure)|ineffective|inadequate(?: response)?|insufficient response|no (?:improvement|response|benefit|relief)|not effective|no longer|discontinued|stopped|without (?:improvement|benefit|response))` +
    String.raw`|(?<negated>none|never(?:\s+(?:tried|used|taken|given))?|not\s+(?:tried|used|taken|started|given|trialed|trialled|prescribed)|(?:no|n\/a|denied)(?=\s*(?:$|[,.;)\n]))))(?![a-z0-9'])`,
  'i',
);

/**
 * A trial ended by an intolerance is an intolerance, which payers accept in place of the trial:
 * "metformin stopped after 2 weeks because of GI upset". Read in the clause after the drug, within
 * ENDED_BY_REACH characters, so the cost stays linear.
 */
const ENDED_BY_INTOLERANCE = new RegExp(
  String.raw`\b(?:because of|due to|owing to|secondary to)\s+(?:[a-z-]+\s+){0,3}?(?:${INTOLERANT_CUES}|gi upset|nausea|vomiting|diarrh(?:o|e)a|myalgias?|myopathy|lactic acidosis)(?![a-z])`,
  'i',
);
const ENDED_BY_REACH = 120;

/** A cue reaches the drug only across this many other words (drug names and list commas aside). */
const CUE_REACH_WORDS = 6;

const CLAUSE_BREAK = /[.!?;\n](?!\d)|\b(?:but|however|although|though|whereas|except)\b/gi;

const WORD_NUMBERS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  eighteen: 18,
};

const UNIT_DAYS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^d/i, 1],
  [/^w/i, 7],
  [/^m/i, 30],
  [/^y/i, 365],
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const DURATION = new RegExp(
  String.raw`(?<![a-z0-9])(?<qualifier>(?:(?:for|x|×|about|approximately|approx\.?|~|the past|the last|past|last)\s*)*)` +
    String.raw`(?:(?<atLeast>at least|more than|greater than|over|>=|≥|>)\s*|(?<under>less than|under|<)\s*)?` +
    String.raw`(?<amount>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|an?)` +
    String.raw`\s*-?\s*(?<unit>days?|weeks?|wks?|months?|mos?|years?|yrs?)(?![a-z])` +
    String.raw`|since\s+(?:(?<sinceMonth>${MONTHS.join('|')})[a-z]*\.?\s+)?(?<sinceYear>(?:19|20)\d{2})(?:-(?<sinceIsoMonth>\d{2})(?:-(?<sinceIsoDay>\d{2}))?)?(?![\d/])` +
    String.raw`|since\s+(?<sinceSlashMonth>\d{1,2})\/(?<sinceSlashYear>(?:19|20)\d{2})`,
  'gi',
);

/** "every 2 weeks" and "q2 weeks" are dosing intervals, not how long the drug was taken. */
const DOSING_INTERVAL_BEFORE = /(?:\bevery|\bq|\bper|\beach|\/)\s*$/i;
/** After a comma or bracket the words still describe the drug only when they start with a duration. */
const CONTINUES_WITH_DURATION = /^[,(]\s*(?:for|x|×|since|over|about|approximately|at least|\d)/i;

interface Span {
  start: number;
  end: number;
}

interface Mention extends Span {
  therapy: string;
}

interface Cue extends Span {
  kind: CueKind;
}

interface DurationFound extends Span {
  days: DayRange;
}

function daysOf(found: RegExpMatchArray, asOf: string | null): DayRange | undefined {
  const year = group(found, 'sinceYear') ?? group(found, 'sinceSlashYear');
  if (year) {
    if (!asOf) return undefined;
    const monthName = group(found, 'sinceMonth');
    const monthNumber =
      group(found, 'sinceIsoMonth') ??
      group(found, 'sinceSlashMonth') ??
      (monthName ? String(MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1) : undefined);
    const day = group(found, 'sinceIsoDay');
    const y = Number(year);
    // The phrase names a period: the trial began somewhere inside it, so the length is a range.
    const earliest = monthNumber
      ? Date.UTC(y, Number(monthNumber) - 1, day ? Number(day) : 1)
      : Date.UTC(y, 0, 1);
    const latest = day ? earliest : monthNumber ? Date.UTC(y, Number(monthNumber), 0) : Date.UTC(y, 11, 31);
    const asOfMs = Date.parse(`${asOf}T00:00:00Z`);
    return {
      min: Math.max(0, Math.round((asOfMs - latest) / DAY_MS)),
      max: Math.max(0, Math.round((asOfMs - earliest) / DAY_MS)),
    };
  }
  const amountText = (group(found, 'amount') ?? '').toLowerCase();
  const qualifier = group(found, 'qualifier') ?? '';
  // "a month" counts only as "for a month": "twice a day" is a frequency.
  if ((amountText === 'a' || amountText === 'an') && !/\b(?:for|past|last)\b/i.test(qualifier))
    return undefined;
  const amount = WORD_NUMBERS[amountText] ?? Number(amountText);
  const unitDays = UNIT_DAYS.find(([pattern]) => pattern.test(group(found, 'unit') ?? ''))?.[1] ?? 0;
  const days = Math.round(amount * unitDays);
  if (group(found, 'atLeast')) return { min: days, max: Infinity };
  if (group(found, 'under')) return { min: 0, max: Math.max(0, days - 1) };
  return { min: days, max: days };
}

/** Only for short windows: DURATION is quadratic in the window's length on some inputs (see durationNear). */
function durationsIn(text: string, window: Span, asOf: string | null): DurationFound[] {
  const slice = text.slice(window.start, window.end);
  const found: DurationFound[] = [];
  for (const match of slice.matchAll(DURATION)) {
    const start = window.start + (match.index ?? 0);
    if (DOSING_INTERVAL_BEFORE.test(text.slice(Math.max(0, start - 8), start))) continue;
    const days = daysOf(match, asOf);
    if (days) found.push({ start, end: start + match[0].length, days });
  }
  return found;
}

/** The text without its trailing run of `char` and whitespace, read from the end (an end-anchored pattern rescans every run). */
function withoutTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && (text.charAt(end - 1) === char || isWhitespace(text.charAt(end - 1)))) end -= 1;
  return text.slice(0, end);
}

/**
 * Longest text a citation repeats from the record. Every fact of a passage cites it, so an unbounded
 * question or answer would be copied once per fact: quadratic in the passage's length.
 */
const CITATION_LIMIT = 200;

function bounded(text: string): string {
  return text.length > CITATION_LIMIT ? `${text.slice(0, CITATION_LIMIT)}…` : text;
}

/** Both ends of a long excerpt, where the drug and its cue are ("metformin ---- … ---- failed"). */
function abridged(text: string): string {
  const half = CITATION_LIMIT / 2;
  return text.length > CITATION_LIMIT ? `${text.slice(0, half)} … ${text.slice(-half)}` : text;
}

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A yes/no answer given about the claim a passage makes (a questionnaire answer or a JSON boolean). */
type Answer = 'yes' | 'no';

/** A piece of the record read as one text. */
interface Passage {
  source: string;
  date: string | null;
  text: string;
  /**
   * Recognised text as it was read, when `text` reads its OCR look-alikes (`Alc` as `A1c`): the same
   * length, so a citation quotes these words at the places matched in `text`.
   */
  cited?: string;
  /** When set, cited instead of the words matched (a questionnaire's answer, whose question is the source). */
  excerpt?: string;
  answer?: Answer;
}

/** A term as written without separators, so "ICS/LABA", "ICS-LABA" and "ics labas" all find "ics/laba". */
function termKey(text: string): string {
  return text.toLowerCase().replace(/[\s_/+-]+/g, '');
}

/**
 * Reads the record's text against a vocabulary of therapy names and classes (the catalog's prior
 * therapy terms). Build it once per vocabulary: it compiles the patterns.
 */
export class ClinicalFactExtractor {
  private readonly termsByKey = new Map<string, string>();
  private readonly mentionPattern: RegExp;

  private readonly lookAlikes: LookAlikeReader;

  /**
   * `therapyTerms`: the therapies the criteria ask about; `drugNames`: the catalog's drugs, brand and
   * generic, which recognised text may have misread along with the therapies.
   */
  constructor(therapyTerms: readonly string[], drugNames: readonly string[] = []) {
    this.lookAlikes = new LookAlikeReader([...therapyTerms, ...drugNames]);
    const unique = [...new Set(therapyTerms.map((term) => term.trim().toLowerCase()))].filter(Boolean);
    // Longest first, so "topical corticosteroid" is one mention and never also "corticosteroid".
    unique.sort((a, b) => b.length - a.length || a.localeCompare(b));
    const withPlural = (term: string) => `${flexibleTerm(term)}(?:e?s)?`;
    for (const term of unique) {
      if (!this.termsByKey.has(termKey(term))) this.termsByKey.set(termKey(term), term);
    }
    this.mentionPattern = new RegExp(
      `(?<![a-z0-9])(?:${unique.map(withPlural).join('|')})(?![a-z0-9])`,
      'gi',
    );
  }

  extract(record: ClinicalRecord, diagnoses: readonly ResolvedDiagnosis[]): ClinicalFacts {
    const asOf = calendarDate(record.asOf);
    const evidence = record.evidence.map((item) => ({
      item,
      passages: evidencePassages(item, this.lookAlikes),
      second: secondReadingPassage(item, this.lookAlikes),
    }));
    const recordFacts = this.factsIn(
      [
        ...record.questionnaires.flatMap(questionnairePassages),
        ...record.visitNotes.map((note): Passage => ({
          source: `visit note ${calendarDate(note.created_at) ?? note.created_at}`,
          date: calendarDate(note.created_at),
          text: normalizeQuotes(note.content),
        })),
      ],
      asOf,
    );
    const evidenceFacts = evidence.map(({ passages, second }) => {
      const read = this.factsIn(passages, asOf);
      return second ? filledIn(read, this.spokenOf(passages), this.factsIn([second], asOf)) : read;
    });
    return {
      measurements: [
        ...diagnoses.flatMap((diagnosis) => bmiFromDiagnosis(diagnosis, asOf) ?? []),
        ...recordFacts.measurements,
        ...evidenceFacts.flatMap((facts) => facts.measurements),
      ],
      therapies: [...recordFacts.therapies, ...evidenceFacts.flatMap((facts) => facts.therapies)],
      documents: recordDocuments(record, evidence),
    };
  }

  private spokenOf(passages: readonly Passage[]): SpokenOf {
    return {
      measurements: measurementsSpokenOf(passages),
      therapies: new Set(
        passages.flatMap((passage) => this.mentionsIn(passage.text).map(({ therapy }) => therapy)),
      ),
    };
  }

  private factsIn(passages: readonly Passage[], asOf: string | null): PassageFacts {
    return {
      measurements: passages.flatMap((passage) => measurementsIn(passage)),
      therapies: passages.flatMap((passage) => this.therapiesIn(passage, asOf)),
    };
  }

  private mentionsIn(text: string): Mention[] {
    return [...text.matchAll(this.mentionPattern)].map((found) => {
      const start = found.index ?? 0;
      return { start, end: start + found[0].length, therapy: this.termFor(found[0]) };
    });
  }

  private termFor(written: string): string {
    const key = termKey(written);
    return (
      this.termsByKey.get(key) ??
      this.termsByKey.get(key.replace(/s$/, '')) ??
      this.termsByKey.get(key.replace(/es$/, '')) ??
      written.toLowerCase()
    );
  }

  /**
   * One pass over the passage: clause breaks, prefix cues and mentions are each found once, in order,
   * and every mention is judged from bounded windows around it or from state carried over from the
   * mention before it, so the work grows with the text, never with its square.
   */
  private therapiesIn(passage: Passage, asOf: string | null): TherapyFact[] {
    const { text } = passage;
    const mentions = this.mentionsIn(text);
    if (mentions.length === 0) return [];
    const breaks = spansOf(text, CLAUSE_BREAK);
    const prefixes = new PrefixCueReader(text);
    let breakIndex = 0;
    const facts: TherapyFact[] = [];
    mentions.forEach((mention, index) => {
      while (breakIndex < breaks.length && (breaks[breakIndex] as Span).end <= mention.start) breakIndex += 1;
      let endIndex = breakIndex;
      while (endIndex < breaks.length && (breaks[endIndex] as Span).start < mention.end) endIndex += 1;
      const clause = {
        start: breaks[breakIndex - 1]?.end ?? 0,
        end: breaks[endIndex]?.start ?? text.length,
      };
      const previous = mentions[index - 1];
      const next = mentions[index + 1];
      const suffix = suffixCue(text, mention, Math.min(clause.end, next?.start ?? text.length));
      const prefix = prefixes.reaching(mention, clause.start, previous);
      const stated = suffix?.kind ?? prefix?.kind;
      if (stated === 'prospective') return;
      const duration = durationNear(text, mention, clause, previous, next, asOf);
      const rest = text.slice(
        mention.end,
        Math.min(clause.end, next?.start ?? text.length, mention.end + ENDED_BY_REACH),
      );
      const endedByIntolerance = stated !== 'negated' && ENDED_BY_INTOLERANCE.test(rest);
      let assertion: TherapyFact['assertion'] =
        stated === 'intolerant' || endedByIntolerance
          ? 'intolerant'
          : stated === 'negated'
            ? 'not_tried'
            : 'tried';
      if (passage.answer === 'no') {
        if (assertion === 'intolerant') return;
        assertion = assertion === 'tried' ? 'not_tried' : 'tried';
      }
      facts.push({
        therapy: mention.therapy,
        assertion,
        // "No" to "has the patient never used X for 3 months?" says X was used, but not for how long.
        duration: assertion === 'tried' && stated === 'negated' ? null : (duration?.days ?? null),
        date: passage.date,
        citation: {
          source: passage.source,
          excerpt:
            passage.excerpt ??
            excerptOf(passage.cited ?? text, mention, suffix ? undefined : prefix, [suffix, duration]),
        },
      });
    });
    return facts;
  }
}

/** Longest excerpt cited for one mention; a cue further away is quoted on its own, before an ellipsis. */
const EXCERPT_REACH = 160;

function excerptOf(
  text: string,
  mention: Mention,
  prefix: Span | undefined,
  after: ReadonlyArray<Span | undefined>,
): string {
  const spans: Span[] = [mention, ...after.filter((span) => span !== undefined)];
  const start = Math.min(...spans.map((span) => span.start));
  const end = Math.max(...spans.map((span) => span.end));
  const near = abridged(tidy(text.slice(start, end)));
  if (!prefix) return near;
  if (end - prefix.start <= EXCERPT_REACH)
    return abridged(tidy(text.slice(Math.min(start, prefix.start), end)));
  return `${tidy(text.slice(prefix.start, prefix.end))} … ${near}`;
}

function spansOf(text: string, pattern: RegExp): Span[] {
  return [...text.matchAll(pattern)].map((found) => ({
    start: found.index ?? 0,
    end: (found.index ?? 0) + found[0].length,
  }));
}

function suffixCue(text: string, mention: Mention, limit: number): Cue | undefined {
  const after = text.slice(mention.end, Math.max(mention.end, limit));
  const found = SUFFIX_CUE.exec(after);
  if (!found) return undefined;
  const kind = (['intolerant', 'tried', 'negated'] as const).find((name) => group(found, name) !== undefined);
  return kind && { kind, start: mention.end, end: mention.end + found[0].length };
}

/** What lies between a cue and a mention, read word by word: the words counted and the commas judged. */
interface Reach {
  cue: Cue;
  /** Where reading stopped: the next mention continues from here. */
  readTo: number;
  words: number;
  /** Every comma so far only separated other drugs ("metformin, and glipizide"). */
  listOnly: boolean;
  conjunctions: number;
  otherWords: boolean;
}

const LIST_CONJUNCTIONS = new Set(['and', 'or', 'nor']);
const NEGATIONS_BEFORE_CUE = new Set(['no', 'not', 'without', 'denies', 'denied', 'never']);

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isWhitespace(char: string): boolean {
  return /\s/.test(char);
}

/**
 * The nearest cue before a drug in its clause, when it reaches the drug: few enough words between,
 * and any comma between only separating other drugs ("denies metformin, glipizide" negates both; "no
 * complications, on metformin" negates neither). Cues are found once per passage; what lies between a
 * cue and successive drugs is read once, continuing from the previous drug, and reading stops as soon
 * as the cue can no longer reach.
 */
class PrefixCueReader {
  private readonly cues: Array<Cue & { match: RegExpMatchArray }>;
  private cueIndex = 0;
  private reach: Reach | undefined;
  private readonly undone = new Map<Cue, boolean>();

  constructor(private readonly text: string) {
    this.cues = [...text.matchAll(PREFIX_CUE)].flatMap((match) => {
      const kind = (['intolerant', 'tried', 'negated', 'prospective'] as const).find(
        (name) => group(match, name) !== undefined,
      );
      const start = match.index ?? 0;
      return kind ? [{ kind, start, end: start + match[0].length, match }] : [];
    });
  }

  reaching(mention: Mention, clauseStart: number, previous: Mention | undefined): Cue | undefined {
    while (this.cueIndex < this.cues.length && (this.cues[this.cueIndex] as Cue).end <= mention.start)
      this.cueIndex += 1;
    const cue = this.cues[this.cueIndex - 1];
    if (!cue || cue.start < clauseStart) return undefined;
    const continues = this.reach?.cue === cue && previous !== undefined && previous.start >= cue.end;
    const reach: Reach = continues
      ? (this.reach as Reach)
      : { cue, readTo: cue.end, words: 0, listOnly: true, conjunctions: 0, otherWords: false };
    if (continues && previous) {
      this.read(reach, previous.start);
      reach.readTo = Math.max(reach.readTo, previous.end);
    }
    this.read(reach, mention.start);
    this.reach = reach;
    if (!reach.listOnly || reach.words > CUE_REACH_WORDS) return undefined;
    const { kind, start, end } = cue;
    if ((kind === 'intolerant' || kind === 'tried') && this.negatedBefore(cue, clauseStart)) {
      return { kind: 'tried', start, end };
    }
    return { kind, start, end };
  }

  /** Reads on to `until`, stopping early once the cue cannot reach any further drug. */
  private read(reach: Reach, until: number): void {
    const { text } = this;
    let at = reach.readTo;
    while (at < until && reach.listOnly && reach.words <= CUE_REACH_WORDS) {
      const code = text.charCodeAt(at);
      if (isAsciiAlphanumeric(code)) {
        let wordEnd = at + 1;
        while (wordEnd < until && isAsciiAlphanumeric(text.charCodeAt(wordEnd))) wordEnd += 1;
        reach.words += 1;
        if (LIST_CONJUNCTIONS.has(text.slice(at, wordEnd).toLowerCase()) && reach.conjunctions === 0)
          reach.conjunctions = 1;
        else reach.otherWords = true;
        at = wordEnd;
        continue;
      }
      const char = text.charAt(at);
      if (char === ',') {
        reach.listOnly = !reach.otherWords;
        reach.conjunctions = 0;
        reach.otherWords = false;
      } else if (char !== '(' && char !== ')' && !isWhitespace(char)) {
        reach.otherWords = true;
      }
      at += 1;
    }
    reach.readTo = Math.max(reach.readTo, at);
  }

  /**
   * A negation word just before an intolerance or failure cue undoes it ("no side effects on
   * metformin"): at most one other word between, read backwards from the cue, once per cue.
   */
  private negatedBefore(cue: Cue, clauseStart: number): boolean {
    const known = this.undone.get(cue);
    if (known !== undefined) return known;
    const { text } = this;
    const wordBefore = (end: number): { start: number; word: string } | undefined => {
      let at = end;
      while (at > clauseStart && isWhitespace(text.charAt(at - 1))) at -= 1;
      if (at === end) return undefined;
      let start = at;
      while (start > clauseStart && isAsciiLetter(text.charCodeAt(start - 1))) start -= 1;
      return start === at ? undefined : { start, word: text.slice(start, at).toLowerCase() };
    };
    const isNegation = (found: { start: number; word: string } | undefined): boolean => {
      if (!found || !NEGATIONS_BEFORE_CUE.has(found.word)) return false;
      return found.start === clauseStart || text.charAt(found.start - 1) !== "'";
    };
    const nearest = wordBefore(cue.start);
    let undone = isNegation(nearest);
    if (
      !undone &&
      nearest &&
      (nearest.start === clauseStart || isWhitespace(text.charAt(nearest.start - 1)))
    ) {
      undone = isNegation(wordBefore(nearest.start));
    }
    this.undone.set(cue, undone);
    return undone;
  }
}

/** The length stated right after the drug ("metformin for 6 months"), else right before ("6 months of metformin"). */
function durationNear(
  text: string,
  mention: Mention,
  clause: Span,
  previous: Mention | undefined,
  next: Mention | undefined,
  asOf: string | null,
): DurationFound | undefined {
  let afterEnd = Math.min(clause.end, next?.start ?? text.length, mention.end + 60);
  const afterText = text.slice(mention.end, afterEnd);
  for (const separator of afterText.matchAll(/[,(]/g)) {
    const at = separator.index ?? 0;
    if (!CONTINUES_WITH_DURATION.test(afterText.slice(at))) {
      afterEnd = mention.end + at;
      break;
    }
  }
  // DURATION's repeated qualifier group backtracks quadratically on runs such as "~~~~…"; it is safe only
  // on these bounded windows (60 characters after, 30 before). Never widen them or scan whole passages.
  const after = durationsIn(text, { start: mention.end, end: afterEnd }, asOf)[0];
  if (after) return after;
  const beforeStart = Math.max(clause.start, previous?.end ?? 0, mention.start - 30);
  const before = durationsIn(text, { start: beforeStart, end: mention.start }, asOf).at(-1);
  const gapWords = before ? (text.slice(before.end, mention.start).match(/[a-z]+/gi)?.length ?? 0) : 0;
  return before && gapWords <= 3 ? before : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Passages: the record's items as texts

function normalizeQuotes(text: string): string {
  return text.replace(/[’‘]/g, "'");
}

const POLAR_ANSWER = /^(?<word>yes|y|true|no|n|false)(?![a-z0-9/])[\s,.;:!–—-]*(?<rest>.*)$/is;
/** An answer that completes its question ("32.4", "6 months", "since 2024") rather than standing alone. */
const COMPLETES_QUESTION = /^(?:(?:for|x|×|over|about|approximately|at least|~|>=?|<=?|≥|≤)\s*)?\d|^since\b/i;
const NEGATIVE_ANSWER = /^(?:no|n|false|none|unknown|unsure|not sure|not applicable|n\/a|na)(?![a-z0-9])/i;

function questionnairePassages(questionnaire: Questionnaire): Passage[] {
  const date = calendarDate(questionnaire.created_at);
  return questionnaire.questions.flatMap(({ question, answer }): Passage[] => {
    const source = `questionnaire: "${bounded(tidy(question))}"`;
    const reply = normalizeQuotes(answer.trim());
    const excerpt = bounded(reply);
    const claim = withoutTrailing(normalizeQuotes(question.trim()), '?');
    const polar = POLAR_ANSWER.exec(reply);
    if (polar) {
      const answered: Answer = /^(?:yes|y|true)$/i.test(group(polar, 'word') ?? '') ? 'yes' : 'no';
      const rest = (group(polar, 'rest') ?? '').trim();
      if (!rest) return [{ source, date, text: claim, excerpt, answer: answered }];
      if (COMPLETES_QUESTION.test(rest))
        return [{ source, date, text: `${claim} ${rest}`, excerpt, answer: answered }];
      return [
        { source, date, text: claim, excerpt, answer: answered },
        { source, date, text: rest },
      ];
    }
    if (COMPLETES_QUESTION.test(reply)) return [{ source, date, text: `${claim} ${reply}`, excerpt }];
    return [{ source, date, text: reply }];
  });
}

const NAME_KEYS = new Set([
  'name',
  'test',
  'test_name',
  'label',
  'analyte',
  'measure',
  'measurement',
  'observation',
  'lab',
  'drug',
  'medication',
  'therapy',
  'display',
]);
const VALUE_KEYS = ['value', 'result', 'value_quantity', 'amount', 'level', 'reading'];
const UNIT_KEYS = ['unit', 'units', 'uom'];
const DATE_KEYS = new Set([
  'date',
  'collected',
  'collected_at',
  'collection_date',
  'date_collected',
  'result_date',
  'resulted_at',
  'observed_at',
  'effective_date',
  'measured_at',
  'recorded_at',
]);
const START_KEYS = new Set(['start', 'start_date', 'started', 'started_on', 'since']);
const DURATION_KEY = /^(?:duration_)?(days|weeks|months|years)$|_(days|weeks|months|years)$/;
const TRIAL_FLAG_KEY = /tried|trial|used|taken|received|given/;
const POLAR_VALUE = /^(?:yes|no|true|false)$/i;

function snakeKey(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

function humanize(key: string): string {
  return snakeKey(key).replace(/_/g, ' ');
}

type Primitive = string | number | boolean;

function isPrimitive(value: unknown): value is Primitive {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Evidence JSON as lines that read like a note: `{ "bmi": 32.4 }` → "bmi: 32.4"; a lab row
 * `{ "name": "A1c", "value": 8.1, "unit": "%" }` → "A1c: 8.1 %"; a medication row
 * `{ "drug": "metformin", "duration_months": 6, "status": "failed" }` → "metformin for 6 months, failed".
 * A date inside an object dates everything under it.
 */
function contentPassages(value: unknown, key: string | null, source: string, date: string | null): Passage[] {
  if (Array.isArray(value)) return value.flatMap((item) => contentPassages(item, key, source, date));
  if (isRecord(value)) {
    const entries = Object.entries(value).map(([name, nested]) => [snakeKey(name), nested] as const);
    const ownDate =
      entries
        .filter(([name, nested]) => DATE_KEYS.has(name) && typeof nested === 'string')
        .map(([, nested]) => calendarDate(nested as string))
        .find((found) => found !== null) ?? date;
    const line = recordLine(entries, key);
    const nested = entries.filter(([, item]) => !isPrimitive(item));
    if (line) {
      return [
        { source, date: ownDate, ...line },
        ...nested.flatMap(([name, item]) => contentPassages(item, name, source, ownDate)),
      ];
    }
    return entries
      .filter(([name]) => !DATE_KEYS.has(name))
      .flatMap(([name, item]) => contentPassages(item, name, source, ownDate));
  }
  if (!isPrimitive(value) || key === null) {
    return typeof value === 'string' ? [{ source, date, text: normalizeQuotes(value) }] : [];
  }
  const excerpt = bounded(`${key}: ${String(value)}`);
  if (typeof value === 'boolean' || POLAR_VALUE.test(String(value))) {
    const answered: Answer = value === true || /^(?:yes|true)$/i.test(String(value)) ? 'yes' : 'no';
    return [{ source, date, text: humanize(key), excerpt, answer: answered }];
  }
  return [{ source, date, text: `${humanize(key)}: ${normalizeQuotes(String(value))}` }];
}

function recordLine(
  entries: ReadonlyArray<readonly [string, unknown]>,
  parentKey: string | null,
): Pick<Passage, 'text' | 'answer'> | undefined {
  const primitives = entries.filter((entry): entry is readonly [string, Primitive] => isPrimitive(entry[1]));
  const fieldOf = (names: readonly string[]) => primitives.find(([name]) => names.includes(name));
  const nameField = primitives.find(([name, item]) => NAME_KEYS.has(name) && typeof item === 'string');
  const valueField = fieldOf(VALUE_KEYS);
  const unitField = fieldOf(UNIT_KEYS);
  const name = nameField?.[1] ?? (valueField && parentKey ? humanize(parentKey) : undefined);
  if (name === undefined) return undefined;
  const used = new Set([nameField?.[0], valueField?.[0], unitField?.[0]]);
  let text = valueField
    ? `${String(name)}: ${String(valueField[1])}${unitField ? ` ${String(unitField[1])}` : ''}`
    : String(name);
  let answer: Answer | undefined;
  for (const [key, item] of primitives) {
    if (used.has(key) || DATE_KEYS.has(key)) continue;
    const durationUnit = DURATION_KEY.exec(key);
    if (durationUnit) text += ` for ${String(item)} ${durationUnit[1] ?? durationUnit[2]}`;
    else if (START_KEYS.has(key)) text += ` since ${String(item)}`;
    else if (typeof item === 'boolean' && TRIAL_FLAG_KEY.test(key)) answer = item ? 'yes' : 'no';
    // A free-text field ("failed", "stopped for nausea") reads as a remark on the named item.
    else if (typeof item === 'string') text += `, ${item}`;
    else text += `, ${humanize(key)} ${String(item)}`;
  }
  return { text: normalizeQuotes(text), ...(answer ? { answer } : {}) };
}

/** File text that is JSON is read like JSON content; any other text is read as it stands. */
function parsedText(text: string): unknown {
  const trimmed = text.trim();
  if (!/^[[{]/.test(trimmed)) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

function evidencePassages(item: ClinicalEvidence, lookAlikes: LookAlikeReader): Passage[] {
  const source = `evidence "${bounded(tidy(item.title))}"`;
  const date = calendarDate(item.date_created);
  const passages = item.content ? contentPassages(item.content, null, source, date) : [];
  if (item.text !== undefined) {
    const json = parsedText(item.text);
    const text = normalizeQuotes(item.text);
    passages.push(
      ...(json !== undefined
        ? contentPassages(json, null, source, date)
        : item.recognised
          ? [recognisedPassage(source, date, text, lookAlikes)]
          : [{ source, date, text }]),
    );
  }
  return passages;
}

/** Text recognised from pixels, its look-alikes read where one reading fits, quoted as it was read. */
function recognisedPassage(
  source: string,
  date: string | null,
  text: string,
  lookAlikes: LookAlikeReader,
): Passage {
  return { source, date, text: lookAlikes.read(text), cited: text };
}

/**
 * A page's second reading, read as its first is. Its source says so: the words it cites are the second
 * reader's, which a reviewer searching the page's first reading would not find.
 */
function secondReadingPassage(item: ClinicalEvidence, lookAlikes: LookAlikeReader): Passage | undefined {
  if (item.secondReading === undefined) return undefined;
  const source = `evidence "${bounded(tidy(item.title))}" (second reading)`;
  return recognisedPassage(
    source,
    calendarDate(item.date_created),
    normalizeQuotes(item.secondReading),
    lookAlikes,
  );
}

type PassageFacts = Pick<ClinicalFacts, 'measurements' | 'therapies'>;

/** What a reading of a page speaks of, whether or not it gave a fact of it. */
interface SpokenOf {
  measurements: ReadonlySet<MeasurementName>;
  therapies: ReadonlySet<string>;
}

/**
 * A measurement is spoken of where one of its names stands with no number after it (`A1c goal`), or
 * with a number that is no result (`A1c not done 8.9 %`) or gives a value: only a number that cannot
 * be the measurement's (`A1c 89 %`, its decimal point lost) leaves it to another reading.
 */
function measurementsSpokenOf(passages: readonly Passage[]): Set<MeasurementName> {
  const spoken = new Set<MeasurementName>();
  for (const compiled of COMPILED_MEASUREMENTS) {
    for (const passage of passages) {
      if (!compiled.named.test(passage.text)) continue;
      const reads = [...passage.text.matchAll(compiled.pattern)].map((found) =>
        readMeasurement(compiled, found, passage.text),
      );
      if (reads.length === 0 || reads.some((read) => read !== 'no_value')) spoken.add(compiled.spec.name);
    }
  }
  return spoken;
}

/**
 * A page's facts with what its second reading adds: a measurement or a therapy the first reading does
 * not speak of at all. Where the first reading speaks of one, even to give no fact (a goal, a planned
 * therapy), the second reading adds nothing of it, so it can fill a gap but never turn a judgement.
 */
function filledIn(first: PassageFacts, spoken: SpokenOf, second: PassageFacts): PassageFacts {
  return {
    measurements: [
      ...first.measurements,
      ...second.measurements.filter((fact) => !spoken.measurements.has(fact.name)),
    ],
    therapies: [
      ...first.therapies,
      ...second.therapies.filter((fact) => !spoken.therapies.has(fact.therapy)),
    ],
  };
}

/** The words of a passage at a place matched in its text, as they were written or read. */
function wordsAsCited(passage: Passage, start: number, length: number): string {
  return (passage.cited ?? passage.text).slice(start, start + length);
}

function measurementsIn(passage: Passage): MeasurementFact[] {
  const facts: MeasurementFact[] = [];
  for (const compiled of COMPILED_MEASUREMENTS) {
    for (const found of passage.text.matchAll(compiled.pattern)) {
      const read = readMeasurement(compiled, found, passage.text);
      if (typeof read === 'string') continue;
      const range = passage.answer === 'no' ? negateRange(read.range) : read.range;
      if (!range) continue;
      facts.push({
        name: compiled.spec.name,
        range,
        display: passage.answer === 'no' ? negatedDisplay(range, compiled.spec.unit) : read.display,
        date: passage.date,
        citation: {
          source: passage.source,
          excerpt: passage.excerpt ?? tidy(wordsAsCited(passage, found.index ?? 0, found[0].length)),
        },
      });
    }
  }
  return facts;
}

function recordDocuments(
  record: ClinicalRecord,
  evidence: ReadonlyArray<{ item: ClinicalEvidence; passages: Passage[] }>,
): RecordDocument[] {
  return [
    ...record.visitNotes.map((note): RecordDocument => ({
      kind: 'visit_note',
      source: `visit note ${calendarDate(note.created_at) ?? note.created_at}`,
      date: calendarDate(note.created_at),
      text: normalizeQuotes(note.content),
    })),
    ...record.questionnaires.map((questionnaire): RecordDocument => ({
      kind: 'questionnaire',
      source: `questionnaire ${calendarDate(questionnaire.created_at) ?? questionnaire.created_at}`,
      date: calendarDate(questionnaire.created_at),
      // A question answered "no" documents the absence of what it asks about.
      text: questionnaire.questions
        .filter(({ answer }) => answer.trim() !== '' && !NEGATIVE_ANSWER.test(answer.trim()))
        .map(({ question, answer }) => normalizeQuotes(`${question} ${answer}`))
        .join('\n'),
    })),
    ...evidence.map(({ item, passages }): RecordDocument => ({
      kind: 'evidence',
      source: `evidence "${bounded(tidy(item.title))}"`,
      date: calendarDate(item.date_created),
      text: [item.title, ...passages.map((passage) => passage.excerpt ?? passage.text)].join('\n'),
    })),
  ];
}
