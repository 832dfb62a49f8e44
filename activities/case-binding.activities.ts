import type { EncryptionSettings } from '../src/config/config';
import { caseBindingHolds } from '../src/temporal/case-binding';
import type { CaseBinding } from '../workflows/case-binding';

export interface AccountBindingCheck {
  caseId: string;
  accountId: string;
  binding: CaseBinding;
}

/** The check a case workflow runs first: the MAC needs the keys, which only the worker holds. */
export const createCaseBindingActivities = ({ encryption }: { encryption: EncryptionSettings }) => ({
  async verifyAccountBinding({ caseId, accountId, binding }: AccountBindingCheck): Promise<boolean> {
    return caseBindingHolds(encryption, caseId, accountId, binding);
  },
});
