import { condition, patched, setHandler } from '@temporalio/workflow';

import type { createEnrollmentActivities } from '../activities/enrollment.activities';
import { mockOutageUntil } from '../domain/cases/case-model';
import { PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS, mergeInformation } from '../domain/cases/patient-enrollment';
import type {
  EnrollmentOutcomeInput,
  PatientEnrollmentCase,
  PatientEnrollmentInput,
} from '../domain/cases/patient-enrollment';
import { CASE_FAILURE_CODE } from '../domain/failures';
import type {
  EnrollmentInformation,
  EnrollmentOutcome,
  EnrollmentScreening,
} from '../domain/programs/enrollment-model';
import { ending, unreachableEnding } from './case-failures';
import { refuse } from './case-lifecycle';
import {
  acceptCaseDecisions,
  continueAsNewIfLong,
  failWith,
  openConnectedCase,
  refuseUnlessAwaiting,
  runCase,
  type ConnectedCaseRun,
} from './case-workflow';
import { IN_PROCESS_STEPS_LOCALLY } from './patches';
import {
  awaitScreeningUpdate,
  enrollmentInformationSignal,
  enrollmentOutcomeSignal,
  submitEnrollmentInformationUpdate,
  submitEnrollmentOutcomeUpdate,
} from './patient-enrollment.messages';

const INFORMATION_EXPIRED = ending(
  'The requested information did not arrive in time.',
  CASE_FAILURE_CODE.informationExpired,
  'The information the program asked for was not provided in time.',
);

/**
 * What the case shows when the program hub answers anything but enrolled. A signal sent from outside
 * the API (Temporal Web, the CLI) is not validated, so an answer of its own keeps its name in the code.
 */
const PROGRAM_ANSWER_FAILURES: Readonly<Record<string, string>> = {
  denied: CASE_FAILURE_CODE.programDenied,
  inconclusive: CASE_FAILURE_CODE.programInconclusive,
};

const programAnswerFailure = (result: string): string =>
  PROGRAM_ANSWER_FAILURES[result] ?? `program_${result}`;

/**
 * What the steps of one run share. The handlers keep each accepted decision here until the step
 * that acts on it clears it; they run between awaits, so steps read these fields afresh after each.
 */
interface PatientEnrollmentRun extends ConnectedCaseRun<
  PatientEnrollmentCase,
  PatientEnrollmentInput,
  ReturnType<typeof createEnrollmentActivities>
> {
  information?: EnrollmentInformation;
  outcome?: EnrollmentOutcomeInput;
  /** While information is being screened, more would be dropped by the outcome of that screening. */
  screeningInProgress: boolean;
  /** The program hub's checks, across runs. */
  programChecksSoFar: number;
}

/** How an enrollment ends when the program stays unreachable, or its work fails otherwise. */
const UNREACHABLE_PROGRAM_ENDING = unreachableEnding('program');

/**
 * processing (rules) → awaiting_review (more information needed) → awaiting_outcome (submitted to
 * the program hub) → completed (enrolled) | failed (ineligible or denied); cancelled until final.
 * One patient_enrollment.updated event per status change.
 */
export async function patientEnrollmentWorkflow(
  input: PatientEnrollmentInput,
): Promise<PatientEnrollmentCase> {
  const run = openPatientEnrollment(input);
  return runCase(run, UNREACHABLE_PROGRAM_ENDING, async () => {
    // A run continued as new resumes in awaiting_outcome; only a fresh case screens.
    if (run.record.status === 'processing') await run.lifecycle.announceCreation();
    if (await screenUntilSubmitted(run)) await awaitProgramOutcome(run);
  });
}

/** Opens the case and registers its handlers before the workflow's first await (see openCase). */
function openPatientEnrollment(input: PatientEnrollmentInput): PatientEnrollmentRun {
  const run: PatientEnrollmentRun = {
    ...openConnectedCase(input, 'patient_enrollment.updated', PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS),
    screeningInProgress: false,
    programChecksSoFar: input.programChecksSoFar ?? 0,
  };
  acceptEnrollmentDecisions(run);
  return run;
}

/** The information the program asked for, a reviewer's record of the program's outcome, and a wait for the rules. */
function acceptEnrollmentDecisions(run: PatientEnrollmentRun): void {
  const { record, cancellation } = run;
  acceptCaseDecisions(run, [
    {
      signal: enrollmentInformationSignal,
      update: submitEnrollmentInformationUpdate,
      check: () => {
        if (
          record.status !== 'awaiting_review' ||
          run.information ||
          cancellation.requested() ||
          run.screeningInProgress
        ) {
          refuse(`Information is accepted in status awaiting_review; this case is ${record.status}.`);
        }
      },
      keep: (information: EnrollmentInformation) => {
        run.information = information;
      },
      answer: (apply) => answerAfterScreening(run, apply),
    },
    {
      signal: enrollmentOutcomeSignal,
      update: submitEnrollmentOutcomeUpdate,
      check: () => refuseUnlessAwaiting(run, 'awaiting_outcome', run.outcome, 'An outcome'),
      keep: (outcome: EnrollmentOutcomeInput) => {
        run.outcome = outcome;
      },
    },
  ]);
  setHandler(awaitScreeningUpdate, async () => {
    await condition(() => record.status !== 'processing');
    return record;
  });
}

/** Information may leave the case in awaiting_review (still missing something): answer once screened again. */
async function answerAfterScreening({ lifecycle, record }: PatientEnrollmentRun, apply: () => void) {
  const screenedBefore = record.screening?.screened_at;
  apply();
  await condition(() => record.screening?.screened_at !== screenedBefore || lifecycle.isFinal);
  return record;
}

/**
 * Screens the request against the program's rules until it is eligible, asking for what they miss,
 * then submits it to the program. Says whether the case awaits the program's outcome; it ends when
 * ineligible, cancelled, or when the information does not arrive in time.
 */
async function screenUntilSubmitted(run: PatientEnrollmentRun): Promise<boolean> {
  const { record } = run;
  while (record.status === 'processing' || record.status === 'awaiting_review') {
    const screening = await screen(run);
    if (await run.cancellation.cancelIfRequested()) return false;
    if (screening.decision === 'ineligible') {
      await failIneligible(run, screening);
      return false;
    }
    if (screening.decision === 'needs_information') {
      if (!(await awaitInformation(run, screening))) return false;
      continue;
    }
    await submitToProgram(run, screening);
    return true;
  }
  return true;
}

/** Runs the program's rules on the request; information sent meanwhile is refused, as it would be lost. */
async function screen(run: PatientEnrollmentRun): Promise<EnrollmentScreening> {
  run.screeningInProgress = true;
  const rules = patched(IN_PROCESS_STEPS_LOCALLY) ? run.inProcess : run.connector;
  const screening = await run.outages.call(() => rules.screenEnrollment({ request: run.record.request }));
  run.screeningInProgress = false;
  return screening;
}

async function failIneligible(run: PatientEnrollmentRun, screening: EnrollmentScreening): Promise<void> {
  await run.lifecycle.moveTo('failed', 'The program rules found the patient ineligible.', {
    screening,
    missing_information: [],
    failure: {
      code: CASE_FAILURE_CODE.ineligible,
      message: screening.reasons.map((reason) => reason.description).join(' '),
    },
    outcome: deniedOutcome(run.record.program_id, screening),
  });
}

/**
 * Shows what the program's rules miss and waits for it, merged into the request for the next
 * screening. Says whether it arrived; the case ends when it does not in time, or is cancelled.
 */
async function awaitInformation(run: PatientEnrollmentRun, screening: EnrollmentScreening): Promise<boolean> {
  const { lifecycle, record, cancellation } = run;
  if (record.status === 'awaiting_review') {
    await lifecycle.update({ screening, missing_information: screening.missing_information });
  } else {
    await lifecycle.moveTo('awaiting_review', 'The program needs more information.', {
      screening,
      missing_information: screening.missing_information,
    });
  }
  const provided = await condition(
    () => run.information !== undefined || cancellation.requested() !== undefined,
    run.input.timings.reviewExpiryMs,
  );
  if (!provided) {
    await failWith(lifecycle, INFORMATION_EXPIRED);
    return false;
  }
  if (await cancellation.cancelIfRequested()) return false;
  record.request = mergeInformation(record.request, run.information!);
  run.information = undefined;
  return true;
}

async function submitToProgram(run: PatientEnrollmentRun, screening: EnrollmentScreening): Promise<void> {
  const { record } = run;
  // An activity's input is not compared on replay, so adding the authorization needs no patch.
  // A case started before authorizations were recorded has none in its request (not even null).
  const submission = await run.outages.call(() =>
    run.connector.submitEnrollment({
      programId: record.program_id,
      caseId: record.id,
      patient_authorization: record.request.patient_authorization,
      ...mockOutageUntil(record, record.request.mock_result?.outage),
    }),
  );
  await run.lifecycle.moveTo('awaiting_outcome', 'Eligible; submitted to the program.', {
    screening,
    missing_information: [],
    submission: { hub_reference: submission.hub_reference, submitted_at: new Date().toISOString() },
  });
}

/**
 * Waits for the program's answer: a reviewer's record of it, or the hub's at a check. A long wait
 * continues as new between checks.
 */
async function awaitProgramOutcome(run: PatientEnrollmentRun): Promise<void> {
  const { record, cancellation, input } = run;
  for (;;) {
    await condition(
      () => run.outcome !== undefined || cancellation.requested() !== undefined,
      input.timings.payerPollIntervalMs,
    );
    if (await cancellation.cancelIfRequested()) return;
    const decided = run.outcome
      ? fromOutcomeInput(record.program_id, run.outcome)
      : // While the hub is down, a reviewer's outcome is taken at once.
        await run.outages.poll(
          () =>
            run.connector.checkEnrollment({
              programId: record.program_id,
              hub_reference: record.submission!.hub_reference,
              checksSoFar: run.programChecksSoFar++,
            }),
          () => run.outcome !== undefined,
        );
    if (!decided) {
      if (run.outcome || cancellation.requested()) continue;
      await continueAsNewIfLong<PatientEnrollmentInput>({
        ...input,
        case: record,
        programChecksSoFar: run.programChecksSoFar,
      });
      continue;
    }
    await endWithProgramOutcome(run, decided);
    return;
  }
}

/** Enrolled completes the case; any other answer fails it, under the answer's failure code. */
async function endWithProgramOutcome(
  { lifecycle }: PatientEnrollmentRun,
  decided: EnrollmentOutcome,
): Promise<void> {
  if (decided.result === 'enrolled') {
    await lifecycle.moveTo('completed', 'Enrolled by the program.', { outcome: decided });
    return;
  }
  await lifecycle.moveTo('failed', `The program answered ${decided.result}.`, {
    outcome: decided,
    failure: {
      code: programAnswerFailure(decided.result),
      message: decided.detail ?? `The program answered ${decided.result}.`,
    },
  });
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
