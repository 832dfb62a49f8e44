import { condition } from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import {
  BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS,
  manualBalance,
  manualDrugCoverage,
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
import { noEligibilityDetails } from '../domain/payers/payer-connector';
import { mockOutageUntil, type DrugRequest } from '../domain/cases/case-model';
import {
  benefitVerificationOutcomeSignal,
  submitBenefitVerificationOutcomeUpdate,
} from './benefit-verification.messages';
import { verifyAccountBindingFirst } from './case-binding';
import { readCaseDocuments, showInsuranceCard } from './case-documents';
import { ending, DEFAULT_FAILURE_ENDINGS } from './case-failures';
import { endOnError, refuse } from './case-lifecycle';
import { ConnectorOutages } from './case-outages';
import { acceptDecisions, connectorCalls, failWith, openCase } from './case-workflow';

const REVIEW_EXPIRED = ending(
  'No manual verification before the review deadline.',
  CASE_FAILURE_CODE.reviewExpired,
  'Nobody recorded a manual verification before the deadline.',
);

/**
 * processing → completed | failed; an inconclusive electronic check goes to awaiting_review until
 * a reviewer records the manual result. One final event, at completed or failed; a payer outage
 * adds non-final ones while the case shows `attention`.
 */
export async function benefitVerificationWorkflow(
  input: BenefitVerificationInput,
): Promise<BenefitVerificationCase> {
  const { lifecycle, record, cancellation } = openCase(
    input,
    'benefit_verification.updated',
    BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS,
    (status) => status === 'completed' || status === 'failed',
  );
  // After openCase: it refuses a start that is not a case before anything reads the input.
  const payer = connectorCalls<ReturnType<typeof createCaseActivities>>(input.timings.connectorRetry).remote;
  // Read through a function: handlers set it between awaits, which flow analysis cannot see.
  let manualResult: ManualVerificationInput | undefined;
  const received = () => manualResult;
  const outages = new ConnectorOutages(
    lifecycle,
    'benefit_verification.updated',
    input.timings.outage,
    cancellation.requested,
  );
  acceptDecisions(lifecycle, [
    {
      signal: benefitVerificationOutcomeSignal,
      update: submitBenefitVerificationOutcomeUpdate,
      check: () => {
        if (record.status !== 'awaiting_review' || manualResult || cancellation.requested()) {
          refuse(`A manual verification result needs status awaiting_review; this case is ${record.status}.`);
        }
      },
      keep: (result: ManualVerificationInput) => {
        manualResult = result;
      },
    },
    cancellation.decision,
    ...outages.decisions,
  ]);
  await verifyAccountBindingFirst(input);

  const { request } = record;
  try {
    await lifecycle.announceCreation();
    const cards = [...request.insurance, ...(request.patient.insurance ?? [])];
    await readCaseDocuments(record, cards);
    const insurance = {
      documentIds: cards.map((document) => document.document_id),
      content: request.insurance_content,
    };
    await showInsuranceCard(record, insurance);
    const benefitsCheck = {
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
        accountId: input.accountId,
        livemode: record.livemode === true,
        provider: {
          npi: request.provider.npi,
          first_name: request.provider.first_name,
          last_name: request.provider.last_name,
        },
        patientGender: request.patient.gender,
      },
    };
    const check = await outages.call(() => payer.checkCaseBenefits(benefitsCheck));
    if (await cancellation.cancelIfRequested()) return record;
    if (check.kind === 'completed') {
      await lifecycle.moveTo('completed', 'Verified electronically.', {
        outcome: { ...check.outcome, verified_manually: false, notes: null },
      });
      return record;
    }
    if (check.kind === 'failed') {
      await lifecycle.moveTo('failed', 'The payer returned an error.', {
        error: check.error,
        failure: { code: check.error.code, message: check.error.message },
      });
      return record;
    }
    await lifecycle.moveTo('awaiting_review', check.reason);

    const decided = await condition(
      () => received() !== undefined || cancellation.requested() !== undefined,
      input.timings.reviewExpiryMs,
    );
    const result = received();
    if (!decided) {
      await failWith(lifecycle, REVIEW_EXPIRED);
    } else if (await cancellation.cancelIfRequested()) {
      return record;
    } else if (result!.status === 'failed') {
      await lifecycle.moveTo('failed', 'Manual verification found no coverage to report.', {
        failure: {
          code: CASE_FAILURE_CODE.manualVerificationFailed,
          message: result!.notes ?? 'The manual verification failed.',
        },
      });
    } else {
      const confirmed = result!.insurance;
      await lifecycle.moveTo('completed', 'Verified manually.', {
        outcome: manualOutcome(request.drugs, result!),
        ...(confirmed && record.insurance_card
          ? { insurance_card: withReviewerValues(record.insurance_card, confirmed) }
          : {}),
      });
    }
  } catch (error) {
    await endOnError(lifecycle, error, cancellation.requested(), DEFAULT_FAILURE_ENDINGS.benefitVerification);
  }
  return record;
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
