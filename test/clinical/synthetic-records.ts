import type { ClinicalEvidence, ClinicalRecord, PlanFormulary } from '../../domain/clinical/clinical-model';
import { shippedPayerCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

/** Every record is judged as of this date, so ages and recency never depend on when tests run. */
export const AS_OF = '2026-03-01';

/** No plan named: each drug's own criteria, and the prior-authorization requirement most plans state. */
export const NO_PLAN: PlanFormulary = shippedPayerCatalog().planFormulary(undefined);

/** A synthetic adult with nothing on file; tests add only what the behaviour under test needs. */
export function syntheticRecord(overrides: Partial<ClinicalRecord> = {}): ClinicalRecord {
  return {
    patient: { date_of_birth: '1975-06-15', gender: 'female' },
    asOf: AS_OF,
    drugs: [],
    diagnoses: [],
    questionnaires: [],
    visitNotes: [],
    evidence: [],
    ...overrides,
  };
}

export function bornOn(dateOfBirth: string): Pick<ClinicalRecord, 'patient'> {
  return { patient: { date_of_birth: dateOfBirth, gender: 'not_specified' } };
}

export function visitNote(content: string, date = '2026-02-10'): ClinicalRecord['visitNotes'][number] {
  return { content, created_at: `${date}T10:00:00Z` };
}

export function questionnaire(
  questions: Array<[question: string, answer: string]>,
  date = '2026-02-12',
): ClinicalRecord['questionnaires'][number] {
  return {
    created_at: `${date}T09:00:00Z`,
    questions: questions.map(([question, answer]) => ({ question, answer })),
  };
}

export function evidence(
  title: string,
  body: Pick<ClinicalEvidence, 'content' | 'text'>,
  date = '2026-02-01',
): ClinicalEvidence {
  return { title, date_created: `${date}T08:00:00`, ...body };
}
