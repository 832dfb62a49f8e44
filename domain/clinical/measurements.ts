import type { EvidenceCitation } from './clinical-model';

/**
 * The measurements the criteria ask about: their names, canonical units and labels, the units a source
 * may write them in, and the facts a value read from the record gives.
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

export interface MeasurementSpec {
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

export const MEASUREMENT_SPECS: readonly MeasurementSpec[] = [
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

/** At most two decimals, without trailing zeros: 119.877 → "119.88", 400.0000001 → "400". */
export function formatNumber(value: number): string {
  return String(Math.round(value * 100) / 100);
}
