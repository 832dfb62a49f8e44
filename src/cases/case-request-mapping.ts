import type { CaseObjectType, CasePatient, DocumentRef } from '../../domain/cases/case-model';
import type { CaseInputContext, IncomingDocument } from './case-type';

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

const EVIDENCE_ASSET_PREFIX = 'evidence_asset_';

/** The files among evidence items, named by their place in the evidence. */
export function evidenceAssetDocuments(
  evidence: ReadonlyArray<{ asset?: { fileContent: string } }> | undefined,
): IncomingDocument[] {
  return (evidence ?? []).flatMap((item, index) =>
    item.asset ? [{ name: `${EVIDENCE_ASSET_PREFIX}${index + 1}`, base64: item.asset.fileContent }] : [],
  );
}

/** Evidence as cases keep it: each file becomes the reference of its stored document, with its declared type. */
export function caseEvidence<Item extends { asset?: { fileType: string } }>(
  evidence: readonly Item[] | undefined,
  documents: DocumentRef[],
): Array<Omit<Item, 'asset'> & { asset?: DocumentRef & { fileType: string } }> {
  return (evidence ?? []).map(({ asset, ...item }, index) => {
    const reference = documents.find((document) => document.name === `${EVIDENCE_ASSET_PREFIX}${index + 1}`);
    return asset && reference ? { ...item, asset: { ...reference, fileType: asset.fileType } } : item;
  });
}

/** The patient as cases keep it: card images become references, never base64 in any case object. */
export function casePatient<Patient extends { insurance?: unknown }>(
  patient: Patient,
  documents: DocumentRef[],
): CasePatient {
  const { insurance: _cardImages, ...rest } = patient;
  const cards = documents.filter((document) => document.name.startsWith('patient_insurance_'));
  return {
    ...(rest as unknown as Omit<CasePatient, 'insurance'>),
    ...(cards.length ? { insurance: cards } : {}),
  };
}

export function requestDocuments(documents: DocumentRef[]): DocumentRef[] {
  return documents.filter((document) => document.name.startsWith('insurance_'));
}

/**
 * Class instances from the validation pipe, as plain JSON for the workflow input. An optional field
 * of a validated object sent as null is absent (the validators skip it), so it is dropped and the
 * case keeps the request as if it had been left out, as the published objects describe it. Free-form
 * JSON inside (evidence `content`, an enrollment prescription's `extra`) is the provider's own and
 * keeps its nulls: the validation pipe leaves it a plain object, not one of its classes.
 */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(withoutNullFields(value))) as T;
}

function withoutNullFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNullFields);
  if (!value || typeof value !== 'object' || Object.getPrototypeOf(value) === Object.prototype) return value;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== null)
      .map(([key, member]) => [key, withoutNullFields(member)]),
  );
}

/**
 * What every new case starts as: `processing`, described as its type describes that status, with its
 * submission as the first history entry and the request's metadata, if any.
 */
export function newCaseRecord<Object extends CaseObjectType>(
  object: Object,
  { caseId, now, livemode }: Pick<CaseInputContext, 'caseId' | 'now' | 'livemode'>,
  statusDescriptions: { processing: string },
  { metadata = {} }: { metadata?: Record<string, string> },
) {
  const at = now.toISOString();
  return {
    id: caseId,
    object,
    status: 'processing' as const,
    status_description: statusDescriptions.processing,
    created_at: at,
    updated_at: at,
    status_history: [{ status: 'processing' as const, at, reason: 'Submitted.' }],
    outcome: null,
    failure: null,
    attention: null,
    metadata,
    livemode,
  };
}
