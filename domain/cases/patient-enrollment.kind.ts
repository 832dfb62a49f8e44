import { caseKind } from './case-kind';

/** A patient enrollment as every layer names it; its model is patient-enrollment.ts. */
export const PATIENT_ENROLLMENT_KIND = caseKind({
  object: 'patient_enrollment',
  idKind: 'patientEnrollment',
  idPrefix: 'pe',
  workflowType: 'patientEnrollmentWorkflow',
  connector: 'program_enrollment',
  events: {
    'patient_enrollment.updated': {
      title: 'Patient Enrollment Updated',
      description: 'A patient enrollment has been updated.',
    },
  },
});
