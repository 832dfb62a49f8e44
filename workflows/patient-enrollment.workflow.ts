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
import { verifyAccountBindingFirst } from './case-binding';
import { ending, DEFAULT_FAILURE_ENDINGS } from './case-failures';
import { endOnError, refuse } from './case-lifecycle';
import { ConnectorOutages } from './case-outages';
import { acceptDecisions, connectorCalls, continueAsNewIfLong, failWith, openCase } from './case-workflow';
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
 * processing (rules) → awaiting_review (more information needed) → awaiting_outcome (submitted to
 * the program hub) → completed (enrolled) | failed (ineligible or denied); cancelled until final.
 * One patient_enrollment.updated event per status change.
 */
export async function patientEnrollmentWorkflow(
  input: PatientEnrollmentInput,
): Promise<PatientEnrollmentCase> {
  const { lifecycle, record, cancellation } = openCase(
    input,
    'patient_enrollment.updated',
    PATIENT_ENROLLMENT_STATUS_DESCRIPTIONS,
  );
  // After openCase: it refuses a start that is not a case before anything reads the input.
  const { remote: programs, inProcess } = connectorCalls<ReturnType<typeof createEnrollmentActivities>>(
    input.timings.connectorRetry,
  );
  const received: { information?: EnrollmentInformation; outcome?: EnrollmentOutcomeInput } = {};
  // While information is being screened, more would be dropped by the outcome of that screening.
  let screeningInProgress = false;
  // Read through a function: handlers set these between awaits, which flow analysis cannot see.
  const latest = () => ({ ...received, cancellation: cancellation.requested() });
  const outages = new ConnectorOutages(
    lifecycle,
    'patient_enrollment.updated',
    input.timings.outage,
    cancellation.requested,
  );

  acceptDecisions(lifecycle, [
    {
      signal: enrollmentInformationSignal,
      update: submitEnrollmentInformationUpdate,
      check: () => {
        if (
          record.status !== 'awaiting_review' ||
          received.information ||
          cancellation.requested() ||
          screeningInProgress
        ) {
          refuse(`Information is accepted in status awaiting_review; this case is ${record.status}.`);
        }
      },
      keep: (information: EnrollmentInformation) => {
        received.information = information;
      },
      answer: (apply) => answerAfterScreening(apply),
    },
    {
      signal: enrollmentOutcomeSignal,
      update: submitEnrollmentOutcomeUpdate,
      check: () => {
        if (record.status !== 'awaiting_outcome' || received.outcome || cancellation.requested()) {
          refuse(`An outcome needs status awaiting_outcome; this case is ${record.status}.`);
        }
      },
      keep: (outcome: EnrollmentOutcomeInput) => {
        received.outcome = outcome;
      },
    },
    cancellation.decision,
    ...outages.decisions,
  ]);
  setHandler(awaitScreeningUpdate, async () => {
    await condition(() => record.status !== 'processing');
    return record;
  });
  await verifyAccountBindingFirst(input);

  /** Information may leave the case in awaiting_review (still missing something): answer once screened again. */
  async function answerAfterScreening(apply: () => void) {
    const screenedBefore = record.screening?.screened_at;
    apply();
    await condition(() => record.screening?.screened_at !== screenedBefore || lifecycle.isFinal);
    return record;
  }

  try {
    // A run continued as new resumes in awaiting_outcome; only a fresh case screens.
    if (record.status === 'processing') await lifecycle.announceCreation();
    while (record.status === 'processing' || record.status === 'awaiting_review') {
      screeningInProgress = true;
      const screen = patched(IN_PROCESS_STEPS_LOCALLY) ? inProcess : programs;
      const screening = await outages.call(() => screen.screenEnrollment({ request: record.request }));
      screeningInProgress = false;
      if (await cancellation.cancelIfRequested()) return record;
      if (screening.decision === 'ineligible') {
        await lifecycle.moveTo('failed', 'The program rules found the patient ineligible.', {
          screening,
          missing_information: [],
          failure: {
            code: CASE_FAILURE_CODE.ineligible,
            message: screening.reasons.map((reason) => reason.description).join(' '),
          },
          outcome: deniedOutcome(record.program_id, screening),
        });
        return record;
      }
      if (screening.decision === 'needs_information') {
        if (record.status === 'awaiting_review') {
          await lifecycle.update({ screening, missing_information: screening.missing_information });
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
          await failWith(lifecycle, INFORMATION_EXPIRED);
          return record;
        }
        if (await cancellation.cancelIfRequested()) return record;
        record.request = mergeInformation(record.request, latest().information!);
        received.information = undefined;
        continue;
      }
      // An activity's input is not compared on replay, so adding the authorization needs no patch.
      // A case started before authorizations were recorded has none in its request (not even null).
      const submission = await outages.call(() =>
        programs.submitEnrollment({
          programId: record.program_id,
          caseId: record.id,
          patient_authorization: record.request.patient_authorization,
          ...mockOutageUntil(record, record.request.mock_result?.outage),
        }),
      );
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
      if (await cancellation.cancelIfRequested()) return record;
      const decided = latest().outcome
        ? fromOutcomeInput(record.program_id, latest().outcome!)
        : // While the hub is down, a reviewer's outcome is taken at once.
          await outages.poll(
            () =>
              programs.checkEnrollment({
                programId: record.program_id,
                hub_reference: record.submission!.hub_reference,
                checksSoFar: checksSoFar++,
              }),
            () => latest().outcome !== undefined,
          );
      if (!decided) {
        if (latest().outcome || latest().cancellation) continue;
        await continueAsNewIfLong<PatientEnrollmentInput>({
          ...input,
          case: record,
          programChecksSoFar: checksSoFar,
        });
        continue;
      }
      if (decided.result === 'enrolled') {
        await lifecycle.moveTo('completed', 'Enrolled by the program.', { outcome: decided });
      } else {
        await lifecycle.moveTo('failed', `The program answered ${decided.result}.`, {
          outcome: decided,
          failure: {
            code: programAnswerFailure(decided.result),
            message: decided.detail ?? `The program answered ${decided.result}.`,
          },
        });
      }
      return record;
    }
  } catch (error) {
    await endOnError(lifecycle, error, cancellation.requested(), DEFAULT_FAILURE_ENDINGS.patientEnrollment);
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
