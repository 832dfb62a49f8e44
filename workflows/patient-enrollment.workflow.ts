import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  type RetryPolicy,
} from '@temporalio/workflow';

import type { createEnrollmentActivities } from '../activities/enrollment.activities';
import type { CancelRequest } from '../domain/cases/case-model';
import { PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS, mergeInformation } from '../domain/cases/patient-enrollment';
import type {
  EnrollmentOutcomeInput,
  PatientEnrollmentCase,
  PatientEnrollmentInput,
} from '../domain/cases/patient-enrollment';
import type {
  EnrollmentInformation,
  EnrollmentOutcome,
  EnrollmentScreening,
} from '../domain/programs/enrollment-model';
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
import { IN_PROCESS_STEPS_LOCALLY } from './patches';
import {
  awaitScreeningUpdate,
  enrollmentInformationSignal,
  enrollmentOutcomeSignal,
  submitEnrollmentInformationUpdate,
  submitEnrollmentOutcomeUpdate,
} from './patient-enrollment.messages';

/** History stays far below Temporal's limits: a long wait for the program continues as a new run. */
const CONTINUE_AS_NEW_AFTER_EVENTS = 10_000;

type EnrollmentActivities = ReturnType<typeof createEnrollmentActivities>;

const PROGRAM_RETRY: RetryPolicy = {
  initialInterval: '2 seconds',
  maximumInterval: '1 minute',
  maximumAttempts: 10,
};

const programs = proxyActivities<EnrollmentActivities>({
  startToCloseTimeout: '30 seconds',
  retry: PROGRAM_RETRY,
});

/** The program rules run inside the worker: a marker in history, not an activity task. */
const inProcess = proxyLocalActivities<EnrollmentActivities>({
  startToCloseTimeout: '10 seconds',
  retry: PROGRAM_RETRY,
});

/**
 * processing (rules) → awaiting_review (more information needed) → awaiting_outcome (submitted to
 * the program hub) → completed (enrolled) | failed (ineligible or denied); cancelled until final.
 * One patient_enrollment.updated event per status change.
 */
export async function patientEnrollmentWorkflow(
  input: PatientEnrollmentInput,
): Promise<PatientEnrollmentCase> {
  await verifyAccountBindingFirst(input);
  const lifecycle = new CaseLifecycle(input.case, {
    accountId: input.accountId,
    eventType: 'patient_enrollment.updated',
    announces: () => true,
    describe: (status) => PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS[status],
  });
  const record = lifecycle.record;
  const received: {
    information?: EnrollmentInformation;
    outcome?: EnrollmentOutcomeInput;
    cancellation?: CancelRequest;
  } = {};
  // While information is being screened, more would be dropped by the outcome of that screening.
  let screeningInProgress = false;
  // Read through a function: handlers set these between awaits, which flow analysis cannot see.
  const latest = () => ({ ...received });

  const checkInformation = () => {
    if (
      record.status !== 'awaiting_review' ||
      received.information ||
      received.cancellation ||
      screeningInProgress
    ) {
      refuse(`Information is accepted in status awaiting_review; this case is ${record.status}.`);
    }
  };
  const checkOutcome = () => {
    if (record.status !== 'awaiting_outcome' || received.outcome || received.cancellation) {
      refuse(`An outcome needs status awaiting_outcome; this case is ${record.status}.`);
    }
  };
  const checkCancellation = () => {
    if (lifecycle.isFinal || received.cancellation) refuse(`A ${record.status} case cannot be cancelled.`);
  };
  const applyInformation = (information: EnrollmentInformation) => {
    checkInformation();
    received.information = information;
  };
  const applyOutcome = (outcome: EnrollmentOutcomeInput) => {
    checkOutcome();
    received.outcome = outcome;
  };
  const applyCancellation = (request: CancelRequest) => {
    checkCancellation();
    received.cancellation = request;
  };

  setHandler(getCaseQuery, () => record);
  setHandler(enrollmentInformationSignal, ignoreRefusal(applyInformation));
  setHandler(enrollmentOutcomeSignal, ignoreRefusal(applyOutcome));
  setHandler(cancelCaseSignal, ignoreRefusal(applyCancellation));
  setHandler(
    submitEnrollmentInformationUpdate,
    (information) => answerAfterScreening(() => applyInformation(information)),
    {
      validator: (_information: EnrollmentInformation) => checkInformation(),
    },
  );
  setHandler(
    submitEnrollmentOutcomeUpdate,
    (outcome) => answerAfter(lifecycle, () => applyOutcome(outcome)),
    {
      validator: (_outcome: EnrollmentOutcomeInput) => checkOutcome(),
    },
  );
  setHandler(
    requestCancellationUpdate,
    (request) => answerWhenCancelled(lifecycle, () => applyCancellation(request)),
    {
      validator: (_request: CancelRequest) => checkCancellation(),
    },
  );
  setHandler(awaitScreeningUpdate, async () => {
    await condition(() => record.status !== 'processing');
    return record;
  });

  /** Information may leave the case in awaiting_review (still missing something): answer once screened again. */
  async function answerAfterScreening(apply: () => void) {
    const screenedBefore = record.screening?.screened_at;
    apply();
    await condition(() => record.screening?.screened_at !== screenedBefore || lifecycle.isFinal);
    return record;
  }

  const cancelIfRequested = async (): Promise<boolean> => {
    const { cancellation } = latest();
    if (!cancellation) return false;
    await lifecycle.moveTo('cancelled', cancellation.reason);
    return true;
  };

  try {
    // A run continued as new resumes in awaiting_outcome; only a fresh case screens.
    if (record.status === 'processing') await lifecycle.announceCreation();
    while (record.status === 'processing' || record.status === 'awaiting_review') {
      screeningInProgress = true;
      const screen = patched(IN_PROCESS_STEPS_LOCALLY) ? inProcess : programs;
      const screening = await screen.screenEnrollment({ request: record.request });
      screeningInProgress = false;
      if (await cancelIfRequested()) return record;
      if (screening.decision === 'ineligible') {
        await lifecycle.moveTo('failed', 'The program rules found the patient ineligible.', {
          screening,
          missing_information: [],
          failure: {
            code: 'ineligible',
            message: screening.reasons.map((reason) => reason.description).join(' '),
          },
          outcome: deniedOutcome(record.program_id, screening),
        });
        return record;
      }
      if (screening.decision === 'needs_information') {
        if (record.status === 'awaiting_review') {
          lifecycle.update({ screening, missing_information: screening.missing_information });
        } else {
          await lifecycle.moveTo('awaiting_review', 'The program needs more information.', {
            screening,
            missing_information: screening.missing_information,
          });
        }
        const provided = await condition(
          () => latest().information !== undefined || latest().cancellation !== undefined,
          input.timings.reviewExpiryMs,
        );
        if (!provided) {
          await lifecycle.moveTo('failed', 'The requested information did not arrive in time.', {
            failure: {
              code: 'information_expired',
              message: 'The information the program asked for was not provided in time.',
            },
          });
          return record;
        }
        if (await cancelIfRequested()) return record;
        record.request = mergeInformation(record.request, latest().information!);
        received.information = undefined;
        continue;
      }
      const submission = await programs.submitEnrollment({ programId: record.program_id, caseId: record.id });
      await lifecycle.moveTo('awaiting_outcome', 'Eligible; submitted to the program.', {
        screening,
        missing_information: [],
        submission: { hub_reference: submission.hub_reference, submitted_at: new Date().toISOString() },
      });
      break;
    }

    let checksSoFar = input.programChecksSoFar ?? 0;
    for (;;) {
      await condition(
        () => latest().outcome !== undefined || latest().cancellation !== undefined,
        input.timings.payerPollIntervalMs,
      );
      if (await cancelIfRequested()) return record;
      const decided = latest().outcome
        ? fromOutcomeInput(record.program_id, latest().outcome!)
        : await programs.checkEnrollment({
            programId: record.program_id,
            hub_reference: record.submission!.hub_reference,
            checksSoFar: checksSoFar++,
          });
      if (!decided) {
        if (latest().outcome || latest().cancellation) continue;
        if (
          workflowInfo().historyLength > CONTINUE_AS_NEW_AFTER_EVENTS ||
          workflowInfo().continueAsNewSuggested
        ) {
          await condition(allHandlersFinished);
          await continueAsNew<typeof patientEnrollmentWorkflow>({
            ...input,
            case: record,
            programChecksSoFar: checksSoFar,
          });
        }
        continue;
      }
      if (decided.result === 'enrolled') {
        await lifecycle.moveTo('completed', 'Enrolled by the program.', { outcome: decided });
      } else {
        await lifecycle.moveTo('failed', `The program answered ${decided.result}.`, {
          outcome: decided,
          failure: {
            code: `program_${decided.result}`,
            message: decided.detail ?? `The program answered ${decided.result}.`,
          },
        });
      }
      return record;
    }
  } catch (error) {
    await endOnError(lifecycle, error, latest().cancellation, {
      reason: 'The program could not be reached.',
      failure: { code: 'program_unavailable', message: 'The program connection failed repeatedly.' },
    });
  }
  return record;
}

function deniedOutcome(programId: string, screening: EnrollmentScreening): EnrollmentOutcome {
  return {
    result: 'denied',
    program_id: programId,
    member_id: null,
    bin: null,
    pcn: null,
    group: null,
    valid_until: null,
    detail: screening.reasons.map((reason) => reason.description).join(' '),
  };
}

function fromOutcomeInput(programId: string, input: EnrollmentOutcomeInput): EnrollmentOutcome {
  return {
    result: input.result,
    program_id: programId,
    member_id: input.member_id ?? null,
    bin: input.bin ?? null,
    pcn: input.pcn ?? null,
    group: input.group ?? null,
    valid_until: input.valid_until ?? null,
    detail: input.detail ?? null,
  };
}
