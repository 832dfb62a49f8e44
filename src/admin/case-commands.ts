import { ID_PREFIXES } from '../../domain/ids';
import { CASE_TYPES } from '../cases/types';
import { CaseCommandError } from './case-usage';

/** The API path of each case type whose cases wait out outages, read off the id's prefix. */
const PATH_OF_PREFIX: Readonly<Record<string, string>> = Object.fromEntries(
  CASE_TYPES.filter((type) => type.waitsOutOutages).map((type) => [ID_PREFIXES[type.idKind], type.path]),
);

/**
 * `cases:retry` and `cases:fail`: an operator's message to a case, sent as `POST /{type}/{id}/retry`
 * or `/fail` with the operator key, so the CLI holds no payload keys and the API audits it as any
 * operator's call. Prints the case the API answers; exits 1 with the API's error otherwise.
 */
export async function runCaseCommand(
  command: 'cases:retry' | 'cases:fail',
  caseId: string | undefined,
  flags: { api?: string; reason?: string; note?: string },
): Promise<number> {
  if (!caseId) throw new CaseCommandError('Name the case: cases:retry ID or cases:fail ID');
  const path = PATH_OF_PREFIX[caseId.split('_')[0]!];
  if (!path)
    throw new CaseCommandError(
      `Only cases that wait out outages (${Object.keys(PATH_OF_PREFIX)
        .map((prefix) => `${prefix}_`)
        .join(', ')}) take cases:retry and cases:fail`,
    );
  if (!flags.api || !/^https?:\/\//.test(flags.api))
    throw new CaseCommandError('--api takes the http(s) URL of the API');
  const operatorKey = process.env.OPERATOR_API_KEY?.trim();
  if (!operatorKey)
    throw new CaseCommandError('Set OPERATOR_API_KEY to an operator key (operator-keys:create)');
  const action = command === 'cases:retry' ? 'retry' : 'fail';
  if (action === 'fail' && !flags.reason) throw new CaseCommandError('cases:fail needs --reason');
  const body = action === 'fail' ? { reason: flags.reason, ...(flags.note ? { note: flags.note } : {}) } : {};
  const response = await fetch(
    `${flags.api.replace(/\/$/, '')}/${path}/${encodeURIComponent(caseId)}/${action}`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${operatorKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    },
  );
  const answer = await response.text();
  (response.ok ? process.stdout : process.stderr).write(`${answer}\n`);
  return response.ok ? 0 : 1;
}
