import {
  CONNECTOR_KIND_FOR_CASE_TYPE,
  CONNECTOR_KINDS_IN_SERVICE,
} from '../../domain/connectors/connector-kinds';
import type { CaseObjectType } from '../../domain/cases/case-model';
import type { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { ApiError } from '../common/errors';

/**
 * CONTRACT.md §10: a live case whose type needs a connector the account has not configured is
 * refused with 409 invalid_state naming it, before anything starts. Clinical eligibility needs none.
 */
export async function requireConnectorFor(
  settings: Pick<ConnectorSettingsRepository, 'isConfigured'>,
  accountId: string,
  caseType: CaseObjectType,
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
  if (await settings.isConfigured(accountId, kind)) return;
  throw new ApiError(
    'invalid_state',
    `Live ${caseType} cases need the account's ${kind} connector, and none is configured; ` +
      `an admin sets it with PUT /connectors/${kind}.`,
  );
}
