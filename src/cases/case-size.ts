import type { CaseRecord } from '../../domain/cases/case-model';
import { ApiError } from '../common/errors';

/** Temporal refuses payloads over 2 MiB; the case object is both the workflow input and the memo. */
const MAX_CASE_BYTES = 1.5 * 1024 * 1024;

/** Refuses what Temporal could not store: a case object travels as workflow input and as memo. */
export function assertStorable(record: CaseRecord): void {
  refuseAbove(Buffer.byteLength(JSON.stringify(record)));
}

/**
 * The same bound on a request before anything of it is stored or claimed: the case holds the request
 * without its documents' contents (they go to SQL), and base64 needs no escaping in JSON, so this is
 * the request's size less theirs. The case object built from it is checked again before it starts.
 */
export function assertRequestStorable(request: object, documents: ReadonlyArray<{ base64: string }>): void {
  const documentBytes = documents.reduce((total, document) => total + document.base64.length, 0);
  refuseAbove(Buffer.byteLength(JSON.stringify(request)) - documentBytes);
}

function refuseAbove(bytes: number): void {
  if (bytes > MAX_CASE_BYTES) {
    throw new ApiError(
      'payload_too_large',
      `This case is larger than ${MAX_CASE_BYTES / 1024 / 1024} MiB without its documents; shorten the notes or evidence, or send them as file assets.`,
    );
  }
}
