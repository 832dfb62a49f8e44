import { CaseFeedbackRepository } from '../../../infrastructure/cases/case-feedback.repository';
import type { AppConfig } from '../../../infrastructure/config/config';
import type { SecretBox } from '../../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../../infrastructure/storage/database';
import type { CaseAnnotations } from '../case-extensions';

/**
 * Adds `feedback[]` (oldest first) to the prior authorizations a caller reads: one query per read or
 * page, none for other case types. A case without feedback carries `feedback: []`, since the contract
 * lists the field on every prior authorization (docs/decisions.md#prescribers) and clients read its length.
 */
export function feedbackAnnotations(deps: {
  db: Database;
  secrets: SecretBox;
  config: AppConfig;
}): CaseAnnotations {
  const feedback = new CaseFeedbackRepository(deps.db, deps.secrets, deps.config.cases.patientRefKey!);
  return {
    async annotate(principal, type, records) {
      if (type.object !== 'prior_authorization' || records.length === 0) return records;
      const byCase = await feedback.ofCases(
        principal.accountId,
        records.map((record) => record.id),
      );
      return records.map((record) => ({ ...record, feedback: byCase.get(record.id) ?? [] }));
    },
  };
}
