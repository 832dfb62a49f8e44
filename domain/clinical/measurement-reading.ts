import type { ResolvedDiagnosis } from './clinical-model';
import { formatNumber, MEASUREMENT_SPECS } from './measurements';
import type { Bound, MeasurementFact, MeasurementName, MeasurementSpec, ValueRange } from './measurements';
import { tidy, wordsAsCited } from './passages';
import type { Passage } from './passages';
import { flexibleTerm, group } from './text-patterns';

/** Reads measured values from passages ("BMI 32.4", "A1c at least 7 %") and BMI bands from Z68 diagnoses. */

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

export function bmiFromDiagnosis(
  diagnosis: ResolvedDiagnosis,
  asOf: string | null,
): MeasurementFact | undefined {
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

/**
 * A measurement is spoken of where one of its names stands with no number after it (`A1c goal`), or
 * with a number that is no result (`A1c not done 8.9 %`) or gives a value: only a number that cannot
 * be the measurement's (`A1c 89 %`, its decimal point lost) leaves it to another reading.
 */
export function measurementsSpokenOf(passages: readonly Passage[]): Set<MeasurementName> {
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

export function measurementsIn(passage: Passage): MeasurementFact[] {
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
