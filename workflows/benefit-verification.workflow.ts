import { condition, proxyActivities, setHandler } from '@temporalio/workflow';

import type { createCaseActivities } from '../activities/cases.activities';
import { BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS } from '../domain/cases/benefit-verification';
import type {
  BenefitVerificationCase,
  BenefitVerificationInput,
  ManualVerificationInput,
} from '../domain/cases/benefit-verification';
import type { CancelRequest } from '../domain/cases/case-model';
import type { BenefitsOutcome } from '../domain/payers/payer-connector';
import {
  benefitVerificationOutcomeSignal,
  submitBenefitVerificationOutcomeUpdate,
} from './benefit-verification.messages';
import { verifyAccountBindingFirst } from './case-binding';
import {
  answerAfter,
  answerWhenCancelled,
  CaseLifecycle,
  endOnError,
  ignoreRefusal,
  refuse,
} from './case-lifecycle';
import { cancelCaseSignal, getCaseQuery, requestCancellationUpdate } from './case.messages';

const payer = proxyActivities<ReturnType<typeof createCaseActivities>>({
  // Real-time eligibility answers within seconds (hard cap 30 s); beyond that an attempt is lost.
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * processing → completed | failed; an inconclusive electronic check goes to awaiting_review until
 * a reviewer records the manual result. One event only, at completed or failed.
 */
export async function benefitVerificationWorkflow(
  input: BenefitVerificationInput,
): Promise<BenefitVerificationCase> {
  await verifyAccountBindingFirst(input);
  const lifecycle = new CaseLifecycle(input.case, {
    accountId: input.accountId,
    eventType: 'benefit_verification.updated',
    announces: (status) => status === 'completed' || status === 'failed',
    describe: (status) => BENEFIT_VERIFICATION_STATUS_DESCRIPTIONS[status],
  });
  const record = lifecycle.record;
  const received: { manualResult?: ManualVerificationInput; cancellation?: CancelRequest } = {};
  // Read through a function: handlers set these between awaits, which flow analysis cannot see.
  const latest = () => ({ ...received });

  const checkManualResult = () => {
    if (record.status !== 'awaiting_review' || received.manualResult || received.cancellation) {
      refuse(`A manual verification result needs status awaiting_review; this case is ${record.status}.`);
    }
  };
  const checkCancellation = () => {
    if (lifecycle.isFinal || received.cancellation) refuse(`A ${record.status} case cannot be cancelled.`);
  };
  const applyManualResult = (result: ManualVerificationInput) => {
    checkManualResult();
    received.manualResult = result;
  };
  const applyCancellation = (request: CancelRequest) => {
    checkCancellation();
    received.cancellation = request;
  };
  setHandler(getCaseQuery, () => record);
  setHandler(benefitVerificationOutcomeSignal, ignoreRefusal(applyManualResult));
  setHandler(cancelCaseSignal, ignoreRefusal(applyCancellation));
  setHandler(
    submitBenefitVerificationOutcomeUpdate,
    (result) => answerAfter(lifecycle, () => applyManualResult(result)),
    {
      validator: (_result: ManualVerificationInput) => checkManualResult(),
    },
  );
  setHandler(
    requestCancellationUpdate,
    (request) => answerWhenCancelled(lifecycle, () => applyCancellation(request)),
    {
      validator: (_request: CancelRequest) => checkCancellation(),
    },
  );

  const { request } = record;
  try {
    const check = await payer.checkCaseBenefits({
      documentIds: [...request.insurance, ...(request.patient.insurance ?? [])].map(
        (document) => document.document_id,
      ),
      content: request.insurance_content,
      patient: {
        first_name: request.patient.first_name,
        last_name: request.patient.last_name,
        date_of_birth: request.patient.date_of_birth,
      },
      drugs: request.drugs,
      mockCase: request.mock_result?.case,
      mockStatus: request.mock_result?.status,
    });
    const { cancellation } = latest();
    if (cancellation) {
      await lifecycle.moveTo('cancelled', cancellation.reason);
      return record;
    }
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
      () => received.manualResult !== undefined || received.cancellation !== undefined,
      input.timings.reviewExpiryMs,
    );
    const { manualResult, cancellation: cancelledInReview } = latest();
    if (!decided) {
      await lifecycle.moveTo('failed', 'No manual verification before the review deadline.', {
        failure: {
          code: 'review_expired',
          message: 'Nobody recorded a manual verification before the deadline.',
        },
      });
    } else if (cancelledInReview) {
      await lifecycle.moveTo('cancelled', cancelledInReview.reason);
    } else if (manualResult!.status === 'failed') {
      await lifecycle.moveTo('failed', 'Manual verification found no coverage to report.', {
        failure: {
          code: 'manual_verification_failed',
          message: manualResult!.notes ?? 'The manual verification failed.',
        },
      });
    } else {
      await lifecycle.moveTo('completed', 'Verified manually.', {
        outcome: {
          ...unknownCoverage(),
          coverage_status: manualResult!.coverage_status!,
          verified_manually: true,
          notes: manualResult!.notes ?? null,
        },
      });
    }
  } catch (error) {
    await endOnError(lifecycle, error, latest().cancellation, {
      reason: 'The payer could not be reached.',
      failure: {
        code: 'payer_unavailable',
        message: 'The payer connection failed repeatedly; nothing was verified.',
      },
    });
  }
  return record;
}

/** A manual verification records the coverage status; the electronic details stay unknown. */
function unknownCoverage(): BenefitsOutcome {
  return {
    coverage_status: 'covered',
    coverage_type: null,
    plan_fund_source: null,
    pharmacy_benefit_manager_name: null,
    payer_name: null,
    plan_name: null,
    bin: null,
    pcn: null,
    deductible: null,
    out_of_pocket: null,
    drugs: [],
  };
}
