import { defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';
import type { EnrollmentOutcomeInput } from '../domain/cases/patient-enrollment';
import type { EnrollmentInformation } from '../domain/programs/enrollment-model';

/** An enrollment's messages, under the names Temporal sees. */
export const enrollmentInformationSignal = defineSignal<[EnrollmentInformation]>('enrollmentInformation');
export const submitEnrollmentInformationUpdate = defineUpdate<CaseRecord, [EnrollmentInformation]>(
  'submitEnrollmentInformation',
);
export const enrollmentOutcomeSignal = defineSignal<[EnrollmentOutcomeInput]>('enrollmentOutcome');
export const submitEnrollmentOutcomeUpdate = defineUpdate<CaseRecord, [EnrollmentOutcomeInput]>(
  'submitEnrollmentOutcome',
);
/** Answers once the program's rules have run, so the API's response can carry their verdict. */
export const awaitScreeningUpdate = defineUpdate<CaseRecord, []>('awaitScreening');
