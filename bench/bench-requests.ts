import { randomInt, randomUUID } from 'node:crypto';

import { BLUE_HORIZON_CARD, CARD_LAYOUTS, cardFaces, pdfDocument, renderFace } from './document-corpus';

/** The requests the bench sends: synthetic patients, the sandbox payer, the catalog's copay program. */

export const patient = () => ({
  internal_id: `bench-${randomUUID().slice(0, 8)}`,
  first_name: 'Bench',
  last_name: 'Patient',
  gender: 'other',
  date_of_birth: '1970-01-01',
});
export const provider = { npi: '1234567893', first_name: 'Bench', last_name: 'Provider' };
export const insurance_content = {
  payer: 'Blue Horizon Health',
  member_id: 'ZZBHH000000001',
  plan_type: 'commercial',
};
export const bvRequest = () => ({
  patient: patient(),
  drugs: [{ name: 'Ozempic', quantity: 1 }],
  provider,
  insurance_content,
  mock_result: { status: 'completed' },
});
export const paRequest = () => ({
  patient: patient(),
  diagnoses: [{ code: 'E11.9' }],
  prescription: { drug_name: 'Ozempic', quantity: 1 },
  provider,
  insurance_content,
});
/** The bench's prior authorization with a record that meets Ozempic's criteria: the payer's CQL answers every item. */
export const paMeetingCriteriaRequest = () => ({
  ...paRequest(),
  evidence: [{ title: 'Lab results', date_created: daysAgo(30), content: { a1c: 'A1c 8.1 %' } }],
  visit_notes: [{ content: 'Patient has taken metformin for 6 months; A1c 8.1 %.', created_at: daysAgo(29) }],
});

/**
 * A prior authorization for Xeljanz, whose sandbox questionnaire is adaptive: its record meets the
 * criteria the payer's CQL reads, and the tuberculosis screening is in a note, for a person to confirm.
 */
export const paAdaptiveQuestionnaireRequest = () => ({
  ...paRequest(),
  diagnoses: [{ code: 'M06.9' }],
  prescription: { drug_name: 'Xeljanz 5 mg tablet', quantity: 60, days_supply: 30 },
  visit_notes: [
    {
      content: 'Inadequate response to adalimumab for 6 months. QuantiFERON negative in January.',
      created_at: daysAgo(58),
    },
  ],
});

/** A local date and time, as a clinic's record writes it (`2026-10-01T09:30:00`). */
function daysAgo(days: number): string {
  return new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 19);
}

export const enrollmentRequest = () => ({
  programId: 'prog_01jnzn5t37ydrsw602nch4aqg1',
  patient: {
    first_name: 'Bench',
    last_name: 'Patient',
    date_of_birth: '1975-03-02',
    address: {
      street: '4 Example Road',
      city: 'Portland',
      state_province: 'OR',
      zip_postal_code: '97201',
      country: 'US',
    },
    email: 'bench@example.test',
    phone: '+1 503 555 0199',
    insurance_details: {
      data: { payer: 'Blue Horizon Health', membership_number: 'ZZBHH555000111', rx_bin: '999901' },
    },
  },
  prescription: { drug_name: 'Ozempic 1 mg pen', dosage: '1 mg weekly' },
});

/** A BV whose only insurance is a photo of the card (a new member id each time, so no reading is reused). */
export async function cardBvRequest(): Promise<object> {
  const memberId = `W${String(randomInt(100_000_000, 999_999_999))}`;
  const card = await renderFace(cardFaces({ ...BLUE_HORIZON_CARD, memberId }, CARD_LAYOUTS[0]!)[0]!);
  return {
    patient: patient(),
    drugs: [{ name: 'Ozempic', quantity: 1 }],
    provider,
    insurance: [{ file_content: card.toString('base64') }],
  };
}

/** A clinic's visit note as a PDF with a text layer, attached as evidence. */
function visitNotePdf(): {
  title: string;
  date_created: string;
  asset: { fileType: string; fileContent: string };
} {
  const pdf = pdfDocument([
    {
      lines: [
        'Visit note',
        'Type 2 diabetes mellitus without complications (E11.9).',
        'BMI 31.2. Hemoglobin A1c 8.1 %.',
        'On metformin 1000 mg twice daily for 8 months; A1c remains above goal.',
        'Plan: start Ozempic 0.25 mg weekly.',
      ],
    },
  ]);
  return {
    title: 'Visit note',
    date_created: new Date().toISOString(),
    asset: { fileType: 'application/pdf', fileContent: pdf.toString('base64') },
  };
}

/** A prior authorization whose clinical evidence is a PDF visit note. */
export const paWithNoteRequest = () => ({ ...paRequest(), evidence: [visitNotePdf()] });

/** A clinical eligibility check for one drug, from a PDF visit note. */
export const ceWithNoteRequest = () => ({
  patient: patient(),
  drugs: [{ name: 'Ozempic', quantity: 1 }],
  diagnoses: [{ code: 'E11.9' }],
  evidence: [visitNotePdf()],
});
