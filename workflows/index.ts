// The worker's single entry into workflow code: every workflow is re-exported here by name.
export { benefitVerificationWorkflow } from './benefit-verification.workflow';
export { caseRetentionWorkflow } from './case-retention.workflow';
export { clinicalEligibilityWorkflow } from './clinical-eligibility.workflow';
export { patientErasureWorkflow } from './patient-erasure.workflow';
export { patientEnrollmentWorkflow } from './patient-enrollment.workflow';
export { priorAuthorizationWorkflow } from './prior-authorization.workflow';
export { providerAuthorizationWorkflow } from './provider-authorization.workflow';
export { webhookActivationWorkflow } from './webhook-activation.workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery.workflow';
