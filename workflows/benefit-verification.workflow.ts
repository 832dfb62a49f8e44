import { condition } from '@temporalio/workflow';

import type { CaseInsurance, createCaseActivities } from '../activities/cases.activities';
import {
  BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS,
  manualBalance,
  manualDrugCoverage,
  manualVerificationIssues,
  manualVerificationNotes,
} from '../domain/cases/benefit-verification';
import type {
  BenefitVerificationCase,
  BenefitVerificationInput,
  BenefitVerificationOutcome,
  ManualVerificationInput,
} from '../domain/cases/benefit-verification';
import { CASE_FAILURE_CODE } from '../domain/failures';
import { withReviewerValues } from '../domain/payers/insurance-card-view';
import { noEligibilityDetails, type BenefitsCheck } from '../domain/payers/payer-connector';
import { mockOutageUntil } from '../domain/cases/case-model';
import type { DrugRequest } from '../domain/cases/benefit-verification-request';
import {
  benefitVerificationOutcomeSignal,
  submitBenefitVerificationOutcomeUpdate,
} from './benefit-verification.messages';
import { readCaseDocuments, showInsuranceCard } from './case-documents';
import { ending, unreachableEnding } from './case-failures';
import {
  acceptCaseDecisions,
  failWith,
  openConnectedCase,
  refuseIssues,
  refuseUnlessAwaiting,
  runCase,
  type ConnectedCaseRun,
} from './case-workflow';
import { checkPrescriber } from './prescriber-registry';

const REVIEW_EXPIRED = ending(
  'No manual verification before the review deadline.',
  CASE_FAILURE_CODE.reviewExpired,
  'Nobody recorded a manual verification before the deadline.',
);

/**
 * What the steps of one run share. The handler keeps the reviewer's manual result here; it runs
 * between awaits, so steps read the field afresh after each.
 */
interface BenefitVerificationRun extends ConnectedCaseRun<
  BenefitVerificationCase,
  BenefitVerificationInput,
  ReturnType<typeof createCaseActivities>
> {
  manualResult?: ManualVerificationInput;
}

/** How a benefit verification ends when the payer stays unreachable, or its work fails otherwise. */
const UNREACHABLE_PAYER_ENDING = unreachableEnding('payer', 'nothing was verified');

/**
 * processing → completed | failed; an inconclusive electronic check goes to awaiting_review until
 * a reviewer records the manual result. One final event, at completed or failed; a payer outage
 * adds non-final ones while the case shows `attention`.
 */
export async function benefitVerificationWorkflow(
  input: BenefitVerificationInput,
): Promise<BenefitVerificationCase> {
  const run = openBenefitVerification(input);
  return runCase(run, UNREACHABLE_PAYER_ENDING, async () => {
    await run.lifecycle.announceCreation();
    await checkPrescriber(run.record);
    const check = await checkBenefits(run);
    if (await run.cancellation.cancelIfRequested()) return;
    if (await settleCheck(run, check)) await awaitManualVerification(run);
  });
}

/** Opens the case and registers its handlers before the workflow's first await (see openCase). */
function openBenefitVerification(input: BenefitVerificationInput): BenefitVerificationRun {
  const run: BenefitVerificationRun = openConnectedCase(
    input,
    'benefit_verification.updated',
    BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS,
    (status) => status === 'completed' || status === 'failed',
  );
  acceptBenefitVerificationDecisions(run);
  return run;
}

/** A reviewer's manual verification result, the cancellation request and the outage decisions. */
function acceptBenefitVerificationDecisions(run: BenefitVerificationRun): void {
  const { record } = run;
  acceptCaseDecisions(run, [
    {
      signal: benefitVerificationOutcomeSignal,
      update: submitBenefitVerificationOutcomeUpdate,
      check: () =>
        refuseUnlessAwaiting(run, 'awaiting_review', run.manualResult, 'A manual verification result'),
      checkInput: (result: ManualVerificationInput) =>
        refuseIssues(manualVerificationIssues(record.request.drugs, result)),
      keep: (result: ManualVerificationInput) => {
        run.manualResult = result;
      },
    },
  ]);
}

/**
 * Reads the case's documents and shows its insurance card, then asks the payer for the patient's
 * eligibility and drug coverage, waiting out an outage.
 */
async function checkBenefits(run: BenefitVerificationRun): Promise<BenefitsCheck> {
  const { record, input } = run;
  const { request } = record;
  const cards = [...request.insurance, ...(request.patient.insurance ?? [])];
  await readCaseDocuments(record, cards);
  const insurance: CaseInsurance = {
    documentIds: cards.map((document) => document.document_id),
    content: request.insurance_content,
  };
  await showInsuranceCard(record, insurance);
  const benefitsCheck = benefitsCheckOf(record, insurance, input.accountId);
  return run.outages.call(() => run.connector.checkCaseBenefits(benefitsCheck));
}

/** What the payer is asked: the insurance, the patient and drugs, and where the case routes. */
function benefitsCheckOf(record: BenefitVerificationCase, insurance: CaseInsurance, accountId: string) {
  const { request } = record;
  return {
    ...insurance,
    patient: {
      first_name: request.patient.first_name,
      last_name: request.patient.last_name,
      date_of_birth: request.patient.date_of_birth,
    },
    drugs: request.drugs,
    mockCase: request.mock_result?.case,
    mockStatus: request.mock_result?.status,
    ...mockOutageUntil(record, request.mock_result?.outage),
    routing: {
      caseId: record.id,
      accountId,
      livemode: record.livemode === true,
      provider: {
        npi: request.provider.npi,
        first_name: request.provider.first_name,
        last_name: request.provider.last_name,
        ...(record.prescriber_registry?.taxonomy && {
          taxonomy_code: record.prescriber_registry.taxonomy.code,
        }),
      },
      patientGender: request.patient.gender,
    },
  };
}

/**
 * Ends the case on the payer's result or error; an inconclusive check moves it to awaiting_review.
 * Says whether the case awaits a manual verification.
 */
async function settleCheck(run: BenefitVerificationRun, check: BenefitsCheck): Promise<boolean> {
  const { lifecycle } = run;
  if (check.kind === 'completed') {
    await lifecycle.moveTo('completed', 'Verified electronically.', {
      outcome: { ...check.outcome, verified_manually: false, notes: null },
    });
    return false;
  }
  if (check.kind === 'failed') {
    await lifecycle.moveTo('failed', 'The payer returned an error.', {
      error: check.error,
      failure: { code: check.error.code, message: check.error.message },
    });
    return false;
  }
  await lifecycle.moveTo('awaiting_review', check.reason);
  return true;
}

/**
 * Waits for a reviewer's manual verification until the review deadline, and records it; the case
 * fails when none comes in time, and ends cancelled when cancelled meanwhile.
 */
async function awaitManualVerification(run: BenefitVerificationRun): Promise<void> {
  const { lifecycle, cancellation, input } = run;
  const decided = await condition(
    () => run.manualResult !== undefined || cancellation.requested() !== undefined,
    input.timings.reviewExpiryMs,
  );
  const result = run.manualResult;
  if (!decided) {
    await failWith(lifecycle, REVIEW_EXPIRED);
  } else if (!(await cancellation.cancelIfRequested())) {
    await recordManualResult(run, result!);
  }
}

/** A manual verification that found no coverage fails the case; any other completes it. */
async function recordManualResult(
  run: BenefitVerificationRun,
  result: ManualVerificationInput,
): Promise<void> {
  const { lifecycle, record } = run;
  if (result.status === 'failed') {
    await lifecycle.moveTo('failed', 'Manual verification found no coverage to report.', {
      failure: {
        code: CASE_FAILURE_CODE.manualVerificationFailed,
        message: result.notes ?? 'The manual verification failed.',
      },
    });
    return;
  }
  const confirmed = result.insurance;
  await lifecycle.moveTo('completed', 'Verified manually.', {
    outcome: manualOutcome(record.request.drugs, result),
    ...(confirmed && record.insurance_card
      ? { insurance_card: withReviewerValues(record.insurance_card, confirmed) }
      : {}),
  });
}

/**
 * A manual verification records what the reviewer found: the coverage status, each requested drug's
 * result (unknown where none was recorded) and the balances and dates they read off the plan.
 */
function manualOutcome(
  requested: DrugRequest[],
  result: ManualVerificationInput,
): BenefitVerificationOutcome {
  const dates = result.coverage_dates;
  const confirmed = result.insurance;
  return {
    coverage_status: result.coverage_status!,
    coverage_type: null,
    plan_fund_source: null,
    pharmacy_benefit_manager_name: null,
    payer_name: confirmed?.payer ?? null,
    plan_name: null,
    bin: confirmed?.rx_bin ?? null,
    pcn: confirmed?.rx_pcn ?? null,
    deductible: manualBalance(result.deductible),
    out_of_pocket: manualBalance(result.out_of_pocket),
    drugs: manualDrugCoverage(requested, result),
    ...noEligibilityDetails(),
    coverage_dates: dates ? { start_date: dates.start_date ?? null, end_date: dates.end_date ?? null } : null,
    verified_manually: true,
    notes: manualVerificationNotes(requested, result),
    ...(confirmed ? { insurance_confirmed_by_reviewer: confirmed } : {}),
  };
}
