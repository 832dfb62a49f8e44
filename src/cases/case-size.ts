import type { CaseRecord } from '../../domain/cases/case-model';
import { ApiError } from '../common/errors';

/** Temporal refuses payloads over 2 MiB; the case object is both the workflow input and the memo. */
const MAX_CASE_BYTES = 1.5 * 1024 * 1024;

/** Refuses what Temporal could not store: a case object travels as workflow input and as memo. */
export function assertStorable(record: CaseRecord): void {
  if (Buffer.byteLength(JSON.stringify(record)) > MAX_CASE_BYTES) {
    throw new ApiError(
      'payload_too_large',
      `This case is larger than ${MAX_CASE_BYTES / 1024 / 1024} MiB without its documents; shorten the notes or evidence, or send them as file assets.`,
    );
  }
}
