import type { CasePatient, DocumentRef } from './case-model';
import type { IncomingDocument } from './cases.service';

/** Names documents by where they were in the request, so the stored references map back. */
export function incomingDocuments(request: {
  patient: { insurance?: Array<{ file_content: string }> };
  insurance?: Array<{ file_content: string }>;
}): IncomingDocument[] {
  return [
    ...(request.patient.insurance ?? []).map((document, index) => ({
      name: `patient_insurance_${index + 1}`,
      base64: document.file_content,
    })),
    ...(request.insurance ?? []).map((document, index) => ({
      name: `insurance_${index + 1}`,
      base64: document.file_content,
    })),
  ];
}

/** The patient as cases keep it: card images become references, never base64 in any case object. */
export function casePatient<Patient extends { insurance?: unknown }>(
  patient: Patient,
  documents: DocumentRef[],
): CasePatient {
  const { insurance: _images, ...rest } = patient;
  const cards = documents.filter((document) => document.name.startsWith('patient_insurance_'));
  return {
    ...(rest as unknown as Omit<CasePatient, 'insurance'>),
    ...(cards.length ? { insurance: cards } : {}),
  };
}

export function requestDocuments(documents: DocumentRef[]): DocumentRef[] {
  return documents.filter((document) => document.name.startsWith('insurance_'));
}

/** Class instances from the validation pipe, as plain JSON for the workflow input. */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
