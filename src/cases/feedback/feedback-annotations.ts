import { CaseFeedbackRepository } from '../../../infrastructure/cases/case-feedback.repository';
import type { AppConfig } from '../../../infrastructure/config/config';
import type { SecretBox } from '../../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../../infrastructure/storage/database';
import type { CaseAnnotations } from '../case-extensions';
import type { CaseType } from '../case-type';

/**
 * Adds `feedback[]` (oldest first) to the prior authorizations a caller reads: one query per read or
 * page, none for a case just created or for other case types. A case without feedback carries
 * `feedback: []`, since the contract lists the field on every prior authorization
 * (docs/decisions.md#prescribers) and clients read its length.
 */
export function feedbackAnnotations(deps: {
  db: Database;
  secrets: SecretBox;
  config: AppConfig;
}): CaseAnnotations {
  const feedback = new CaseFeedbackRepository(deps.db, deps.secrets, deps.config.cases.patientRefKey!);
  const annotated = (type: CaseType) => type.object === 'prior_authorization';
  return {
    async read(principal, type, caseIds) {
      if (!annotated(type)) return (record) => record;
      const byCase = await feedback.ofCases(principal.accountId, caseIds);
      return (record) => ({ ...record, feedback: byCase.get(record.id) ?? [] });
    },
    ofNew: (type, record) => (annotated(type) ? { ...record, feedback: [] } : record),
  };
}
