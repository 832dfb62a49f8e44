import type { AppConfig } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { ADMIT_EVERY_CASE, type CaseAdmission } from '../cases/case-extensions';

/** Placeholder until enforcement is built (issue 46): every case is admitted. */
export function providerAuthorizationAdmission(_deps: { config: AppConfig; db: Database }): CaseAdmission {
  return ADMIT_EVERY_CASE;
}
