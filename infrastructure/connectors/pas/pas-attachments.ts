import type { CaseDocumentsRepository } from '../../cases/case-documents.repository';
import type { AnswerAttachment } from './pas-request';

/** The few formats a provider attaches, told by their first bytes; anything else is sent as bytes. */
const SIGNATURES: Array<[Buffer, string]> = [
  [Buffer.from('%PDF-'), 'application/pdf'],
  [Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png'],
  [Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg'],
  [Buffer.from('II*\0'), 'image/tiff'],
  [Buffer.from('MM\0*'), 'image/tiff'],
];

/**
 * Reads the case documents attached to an information answer for a PAS channel's
 * `readAttachments`, inside the activity, so their contents never pass through workflow history.
 */
export function caseDocumentAttachments(
  documents: Pick<CaseDocumentsRepository, 'read'>,
): (documentIds: string[]) => Promise<AnswerAttachment[]> {
  return async (documentIds) =>
    (await documents.read(documentIds)).map((data, index) => ({
      title: `Attached document ${index + 1}`,
      contentType:
        SIGNATURES.find(([signature]) => data.subarray(0, signature.length).equals(signature))?.[1] ??
        'application/octet-stream',
      data,
    }));
}
