import type { CaseBinding } from '../domain/cases/case-binding';
import type { EncryptionSettings } from '../infrastructure/config/config';
import { caseBindingHolds } from '../infrastructure/temporal/case-binding';

/** What a case was started with; anything here may have been forged. */
export interface AccountBindingCheck {
  workflowId: string;
  caseId?: string;
  accountId?: string;
  /** The `AccountId` search attribute the starter set. */
  listedAccountId?: string;
  binding?: CaseBinding;
}

/** The check a case workflow runs first: the MAC needs the keys, which only the worker holds. */
export const createCaseBindingActivities = ({ encryption }: { encryption: EncryptionSettings }) => ({
  async verifyAccountBinding(check: AccountBindingCheck): Promise<boolean> {
    const { workflowId, caseId, accountId, listedAccountId, binding } = check;
    return (
      caseId === workflowId &&
      typeof accountId === 'string' &&
      listedAccountId === accountId &&
      binding !== undefined &&
      caseBindingHolds(encryption, workflowId, accountId, binding)
    );
  },
});
