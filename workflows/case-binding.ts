import {
  ApplicationFailure,
  patched,
  proxyLocalActivities,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';

import type { createCaseBindingActivities } from '../activities/case-binding.activities';
import type { CaseBinding } from '../domain/cases/case-binding';
import { ACCOUNT_BINDING_INVALID } from '../domain/failures';
import { ACCOUNT_ID, CASE_STATUS } from '../domain/temporal/search-attributes';
import { VERIFY_ACCOUNT_BINDING } from './patches';

const { verifyAccountBinding } = proxyLocalActivities<ReturnType<typeof createCaseBindingActivities>>({
  startToCloseTimeout: '10 seconds',
  retry: { maximumInterval: '1 minute' },
});

/**
 * A case's first step: anyone who can write to the Temporal namespace could start a case naming
 * any account, and that account's receivers would get correctly signed webhooks about it. Only the
 * API can bind an account to a case id, so a case whose binding does not verify (against its
 * workflow id, the input's account and its AccountId search attribute) is refused before
 * it publishes anything: it fails with `AccountBindingInvalid` and leaves the named account's lists.
 */
export async function verifyAccountBindingFirst(input: {
  case: { id: string };
  accountId: string;
  binding?: CaseBinding;
}): Promise<void> {
  const { workflowId, continuedFromExecutionRunId, cronSchedule, attempt, typedSearchAttributes } =
    workflowInfo();
  // A run the case continued as new itself carries the input the case wrote: its first run's binding,
  // or none when that run predates bindings. Cron and retry runs name a run they continue from too,
  // but their input is the starter's, so they are always checked.
  const continuedByTheCase =
    continuedFromExecutionRunId !== undefined && cronSchedule === undefined && attempt === 1;
  if ((continuedByTheCase && input.binding === undefined) || !patched(VERIFY_ACCOUNT_BINDING)) return;
  // Every comparison happens inside the activity, so a replay takes its recorded answer whatever it is given.
  const holds = await verifyAccountBinding({
    workflowId,
    caseId: input.case?.id,
    accountId: input.accountId,
    // Reads find a case by this attribute, which the starter sets: it must name the bound account too.
    listedAccountId: typedSearchAttributes.get(ACCOUNT_ID),
    binding: input.binding,
  });
  if (!holds) refuseUnboundCase();
}

/**
 * Refuses a start whose input is not a case at all (any sealed payload decodes, a copied memo field
 * included) before workflow code reads it: otherwise reading it would fail the workflow task, which
 * Temporal retries for ever, leaving the workflow running under the account it names.
 */
export function refuseMalformedStart(
  input: { case?: { id?: unknown }; accountId?: unknown } | undefined,
): void {
  if (typeof input?.case?.id !== 'string' || typeof input.accountId !== 'string') refuseUnboundCase();
}

function refuseUnboundCase(): never {
  upsertSearchAttributes([
    { key: ACCOUNT_ID, value: null },
    { key: CASE_STATUS, value: 'failed' },
  ]);
  throw ApplicationFailure.create({
    type: ACCOUNT_BINDING_INVALID,
    nonRetryable: true,
    message:
      'This case was not started by the API for the account it names (its account binding does not verify), so it was refused.',
  });
}
