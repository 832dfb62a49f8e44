import { caseKind } from './case-kind';

/** A prior authorization as every layer names it; its model is prior-authorization.ts. */
export const PRIOR_AUTHORIZATION_KIND = caseKind({
  object: 'prior_authorization',
  idKind: 'priorAuthorization',
  idPrefix: 'pa',
  workflowType: 'priorAuthorizationWorkflow',
  connector: 'prior_authorization',
  events: {
    'prior_authorization.updated': {
      title: 'Prior Authorization Updated',
      description: 'A prior authorization has been updated.',
    },
    'prior_authorization.overdue': {
      title: 'Prior Authorization Overdue',
      description: "A prior authorization's payer decision deadline (due_at) passed without a determination.",
    },
  },
});
