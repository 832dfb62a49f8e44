import type { ClinicalRecord } from '../domain/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../domain/clinical/criteria-evaluation';
import { answerPriorAuthCriteria } from '../domain/payers/prior-auth-criteria';
import { shippedPayerCatalog, shippedClinicalCatalog } from '../infrastructure/catalogs/shipped-catalogs';

const HUNDRED_KB = 100 * 1024;

/** Texts of 100 KB shaped like the inputs that once made extraction quadratic, and one realistic note. */
const SHAPES: ReadonlyArray<readonly [name: string, text: (bytes: number) => string]> = [
  ['repeated cue ("no metformin metformin …")', (bytes) => `no ${'metformin '.repeat(bytes / 10)}`],
  ['stacked negations ("no no no … metformin")', (bytes) => `${'no '.repeat(bytes / 3)}metformin`],
  ['drug list ("denies metformin, metformin, …")', (bytes) => `denies ${'metformin, '.repeat(bytes / 11)}`],
  ['long digit run ("A1c 777…")', (bytes) => `A1c ${'7'.repeat(bytes)} %`],
  ['one sentence per drug ("metformin. metformin. …")', (bytes) => 'metformin. '.repeat(bytes / 11)],
  [
    'realistic note',
    (bytes) =>
      'Type 2 diabetes since 2019. A1c 8.2 % on 2026-01-05, BMI 34.1 kg/m2. Tried metformin 1000 mg twice daily for 6 months with inadequate response; no side effects. Denies pancreatitis. Plan: start Ozempic 0.25 mg weekly. '.repeat(
        Math.ceil(bytes / 200),
      ),
  ],
];

export interface ExtractionBenchRow {
  shape: string;
  /** The criteria engine (clinical eligibility) on a visit note of 100 KB, milliseconds. */
  clinicalEligibilityMsPer100Kb: number;
  /** The PA prefill's reading of the same note, milliseconds. */
  priorAuthPrefillMsPer100Kb: number;
}

function record(note: string): ClinicalRecord {
  return {
    patient: { date_of_birth: '1970-05-01', gender: 'female' },
    asOf: '2026-03-01',
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    diagnoses: [{ code: 'E11.9' }],
    questionnaires: [],
    visitNotes: [{ content: note, created_at: '2026-02-01T09:00:00Z' }],
    evidence: [],
  };
}

/** The best of a few runs, so one GC pause does not pass for the cost of the text. */
function fastestMs(run: () => unknown, runs = 3): number {
  let best = Infinity;
  for (let index = 0; index < runs; index += 1) {
    const started = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return Math.round(best * 10) / 10;
}

/**
 * Extraction time per 100 KB of visit note, inline on this thread (the worker runs it in its pool),
 * for each adversarial shape and a realistic note. Linear extraction keeps every row in the same range.
 */
export async function measureExtraction(): Promise<ExtractionBenchRow[]> {
  const catalog = shippedPayerCatalog();
  const drug = catalog.findDrug({ name: 'Ozempic' });
  const criteria = drug ? catalog.criteriaFor(drug) : [];
  return SHAPES.map(([shape, text]) => {
    const note = text(HUNDRED_KB);
    const scale = HUNDRED_KB / note.length;
    const checked = record(note);
    const prefill = {
      plan: null,
      drug: { name: 'Ozempic', quantity: 1 },
      patient: checked.patient,
      diagnoses: [{ code: 'E11.9' }],
      evidence: [],
      questionnaires: [],
      visitNotes: checked.visitNotes,
    };
    return {
      shape,
      clinicalEligibilityMsPer100Kb:
        Math.round(
          fastestMs(() =>
            evaluateClinicalEligibility(
              checked,
              shippedPayerCatalog().planFormulary(undefined),
              shippedClinicalCatalog(),
            ),
          ) *
            scale *
            10,
        ) / 10,
      priorAuthPrefillMsPer100Kb:
        Math.round(
          fastestMs(() =>
            answerPriorAuthCriteria(criteria, prefill, checked.asOf, shippedClinicalCatalog()),
          ) *
            scale *
            10,
        ) / 10,
    };
  });
}
