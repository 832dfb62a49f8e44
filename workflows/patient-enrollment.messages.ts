import { defineSignal, defineUpdate } from '@temporalio/workflow';

import type { CaseRecord } from '../domain/cases/case-model';
import type { EnrollmentInformation } from '../domain/programs/enrollment-model';

/** The program's decision, recorded by a person when the program answered outside the hub. */
export interface EnrollmentOutcomeInput {
  result: 'enrolled' | 'denied' | 'inconclusive';
  member_id?: string;
  bin?: string;
  pcn?: string;
  group?: string;
  valid_until?: string;
  detail?: string;
}

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
