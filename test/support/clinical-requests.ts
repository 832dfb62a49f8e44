import type { ClinicalRecord } from '../../domain/clinical/clinical-model';
import { AS_OF } from '../clinical/synthetic-records';
import { syntheticPatient } from './case-requests';

/**
 * A catalog fixture as an HTTP request. Fixtures are dated as of AS_OF; the service judges as of
 * today, so every date moves by the same offset and ages and recency stay what the fixture meant.
 */
export function requestFrom(drug: string, record: Partial<ClinicalRecord>): Record<string, unknown> {
  const offsetMs = Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse(AS_OF);
  const shift = (iso: string) => new Date(Date.parse(iso) + offsetMs).toISOString();
  const shiftDate = (date: string) => shift(`${date}T00:00:00Z`).slice(0, 10);
  // Evidence content may date its own values ({ bmi: 34.5, date: '2026-02-01' }).
  const shiftContent = (value: unknown): unknown =>
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)
      ? shiftDate(value)
      : Array.isArray(value)
        ? value.map(shiftContent)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shiftContent(inner)]))
          : value;
  return {
    patient: syntheticPatient({
      date_of_birth: shiftDate(record.patient?.date_of_birth ?? '1975-06-15'),
      gender: record.patient?.gender ?? 'female',
    }),
    drugs: [{ name: drug, quantity: 1 }],
    diagnoses: record.diagnoses?.length ? record.diagnoses : [{ description: 'no relevant history' }],
    questionnaires: (record.questionnaires ?? []).map((item) => ({
      ...item,
      created_at: shift(item.created_at),
    })),
    visit_notes: (record.visitNotes ?? []).map((note) => ({ ...note, created_at: shift(note.created_at) })),
    evidence: (record.evidence ?? []).map(({ text, content, ...item }) => ({
      ...item,
      date_created: shift(item.date_created),
      ...(text === undefined
        ? { content: shiftContent(content) }
        : { asset: { fileType: 'text/plain', fileContent: Buffer.from(text).toString('base64') } }),
    })),
  };
}
