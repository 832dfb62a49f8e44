import type {
  FormulariesRepository,
  FormularyLoader,
  FormularySummary,
} from '../../infrastructure/formularies/formularies.repository';
import { FormularyFileError, readFormularyFile } from '../../infrastructure/formularies/formulary-file';
import { ApiError } from '../common/errors';

/** An account's formularies: loaded whole from CSV, listed, and deleted. */
export class FormulariesService {
  constructor(private readonly formularies: FormulariesRepository) {}

  list(accountId: string): Promise<FormularySummary[]> {
    return this.formularies.list(accountId);
  }

  /** Replaces the payer's formulary with the file's rows; a file with any problem changes nothing. */
  async replace(
    accountId: string,
    payerId: string,
    csv: string,
    loadedBy: FormularyLoader,
  ): Promise<FormularySummary> {
    let entries;
    try {
      entries = readFormularyFile(csv, payerId.toUpperCase());
    } catch (error) {
      if (error instanceof FormularyFileError) throw refusal(error);
      throw error;
    }
    return this.formularies.replace(accountId, payerId, entries, loadedBy);
  }

  async remove(accountId: string, payerId: string): Promise<FormularySummary> {
    const removed = await this.formularies.remove(accountId, payerId);
    if (!removed) throw ApiError.notFound('Your account has no formulary for this payer.');
    return removed;
  }
}

function refusal(error: FormularyFileError): ApiError {
  const listed = error.truncated ? ` The first ${error.problems.length} problems are listed.` : '';
  return new ApiError(
    'validation_error',
    `The formulary file is invalid; nothing was loaded and any earlier formulary for this payer stays in place.${listed}`,
    error.problems.map((problem) => ({
      field: problem.column === null ? `row ${problem.row}` : `row ${problem.row}, column ${problem.column}`,
      issue: problem.issue,
    })),
  );
}
