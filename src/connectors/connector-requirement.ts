import { CONNECTOR_KIND_FOR_CASE_TYPE } from '../../domain/cases/case-kinds';
import { CONNECTOR_KINDS_IN_SERVICE } from '../../domain/connectors/connector-kinds';
import type { CaseObjectType } from '../../domain/cases/case-model';
import type { Prescription } from '../../domain/cases/prior-authorization-request';
import type { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { ApiError } from '../common/errors';
import { shippedPayerCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

/**
 * docs/decisions.md#modes: a live case whose type needs a connector the account has not configured is
 * refused with 409 invalid_state naming it, before anything starts. Clinical eligibility needs none.
 *
 * A live prior authorization goes over Da Vinci PAS, which payers offer for drugs billed under the
 * medical benefit. A pharmacy-benefit drug's PA goes over NCPDP SCRIPT ePA, whose standard is not
 * public and which this release cannot send, so a live PA for one (or for a drug whose benefit the
 * catalog does not know) is refused, naming the benefit and never the patient. `request` is the
 * case's validated request body.
 */
export async function requireConnectorFor(
  settings: Pick<ConnectorSettingsRepository, 'isConfigured'>,
  accountId: string,
  caseType: CaseObjectType,
  request?: object,
): Promise<void> {
  const kind = CONNECTOR_KIND_FOR_CASE_TYPE[caseType];
  if (kind === null) return;
  if (!CONNECTOR_KINDS_IN_SERVICE.includes(kind)) {
    throw new ApiError(
      'invalid_state',
      `Live ${caseType} cases need a ${kind} connector, which this release cannot use yet; ` +
        'send them with a test key, where the simulators answer.',
    );
  }
  // Da Vinci PAS carries what the medical benefit bills; a pharmacy-benefit drug needs NCPDP SCRIPT ePA.
  if (kind === 'prior_authorization') requirePasBenefit(request);
  if (await settings.isConfigured(accountId, kind)) return;
  throw new ApiError(
    'invalid_state',
    `Live ${caseType} cases need the account's ${kind} connector, and none is configured; ` +
      `an admin sets it with PUT /connectors/${kind}.`,
  );
}

function requirePasBenefit(request: object | undefined): void {
  const prescription = (request as { prescription?: Partial<Prescription> } | undefined)?.prescription;
  const benefit = prescription ? shippedPayerCatalog().prescribedDrugBenefit(prescription) : undefined;
  if (benefit === 'medical') return;
  throw new ApiError(
    'invalid_state',
    benefit
      ? 'Live prior authorizations go over Da Vinci PAS, which covers drugs billed under the medical ' +
          'benefit; this drug is billed under the pharmacy benefit, whose prior authorizations go over ' +
          'NCPDP SCRIPT ePA, which this release cannot send yet. Send it with a test key, where the ' +
          'simulated payer answers.'
      : 'Live prior authorizations go over Da Vinci PAS, which covers drugs billed under the medical ' +
          "benefit; the catalog does not know this drug's benefit, so it cannot be sent. Send it with a " +
          'test key, where the simulated payer answers.',
  );
}
