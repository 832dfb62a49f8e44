import type { EndpointConnectorSettings } from '../../../domain/connectors/connector-settings';
import type { QuestionnaireFallbackReason } from '../../../domain/dtr/questionnaire';
import type { WebhookTargetPolicy } from '../../webhooks/target-policy';
import { AnswerTooLargeError, connectorAuthorization, postToConnector } from '../outbound-post';
import type { PostedAnswer } from '../outbound-post';
import type { FhirResource } from '../crd/cds-hooks';

/** Where a payer's DTR service answers: its FHIR base, credentials and time limit. */
export type DtrEndpoint = Pick<EndpointConnectorSettings, 'url' | 'auth' | 'timeoutMs'>;

/**
 * A `$questionnaire-package` answer as the service sent it, for readQuestionnairePackage, or why there
 * is none: the reason the case keeps (`prefill_failure`) as it goes on to review without the package.
 */
export type FetchedQuestionnairePackage =
  { kind: 'fetched'; parameters: unknown } | { kind: 'failed'; reason: QuestionnaireFallbackReason };

/**
 * A package carries its CQL compiled to ELM, FHIRHelpers' alone being about a megabyte base64-encoded,
 * and may bring expanded ValueSets: far more than CRD's answers, still bounded.
 */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
const FHIR_JSON = 'application/fhir+json';

/**
 * Asks a payer's DTR service for the package of the questionnaire its CRD answer named: `POST
 * [base]/Questionnaire/$questionnaire-package` (Da Vinci DTR 2.0.1) with the canonical as the
 * operation's `questionnaire` input; its other inputs (coverage, order, context) are optional and not
 * sent. The service's failures never fail the case: a refused, broken or unsuccessful call (any
 * non-2xx, a 404 OperationOutcome for an unknown canonical included) is `dtr_unavailable`, one past
 * the time limit `dtr_timed_out`, one past 16 MB `dtr_answer_too_large`, and an answer that is not JSON, or not Parameters holding a
 * PackageBundle, `dtr_invalid_package`. What the package holds is readQuestionnairePackage's to judge.
 */
export async function fetchQuestionnairePackage(
  endpoint: DtrEndpoint,
  canonical: string,
  policy: WebhookTargetPolicy,
): Promise<FetchedQuestionnairePackage> {
  const answer = await postToDtrService(
    endpoint,
    '$questionnaire-package',
    questionnairePackageRequest([canonical]),
    policy,
    MAX_ANSWER_BYTES,
  );
  if ('failed' in answer) return failed(answer.failed);
  let parameters: unknown;
  try {
    parameters = JSON.parse(answer.body);
  } catch {
    return failed('dtr_invalid_package');
  }
  return holdsPackageBundle(parameters) ? { kind: 'fetched', parameters } : failed('dtr_invalid_package');
}

/**
 * POSTs a FHIR operation on Questionnaire (`[base]/Questionnaire/{operation}`) to a DTR service with the
 * connector's credentials and time limit, reading at most `maxAnswerBytes`. Answers the body of a 2xx
 * answer, or why there is none: `dtr_answer_too_large` past `maxAnswerBytes`, `dtr_timed_out` past the
 * time limit, `dtr_unavailable` for a refused, broken or unsuccessful call.
 */
export async function postToDtrService(
  endpoint: DtrEndpoint,
  operation: string,
  body: object,
  policy: WebhookTargetPolicy,
  maxAnswerBytes: number,
): Promise<{ body: string } | { failed: QuestionnaireFallbackReason }> {
  const deadline = Date.now() + endpoint.timeoutMs;
  let answer: PostedAnswer;
  try {
    answer = await postToConnector(
      `${endpoint.url.replace(/\/+$/, '')}/Questionnaire/${operation}`,
      JSON.stringify(body),
      { 'Content-Type': FHIR_JSON, Accept: FHIR_JSON, ...connectorAuthorization(endpoint.auth) },
      { policy, timeoutMs: endpoint.timeoutMs, maxAnswerBytes },
    );
  } catch (error) {
    if (error instanceof AnswerTooLargeError) return { failed: 'dtr_answer_too_large' };
    // The post fails with the same error type whether it was refused, broken or out of time; the clock tells which.
    return { failed: Date.now() >= deadline ? 'dtr_timed_out' : 'dtr_unavailable' };
  }
  return answer.status >= 200 && answer.status < 300 ? { body: answer.body } : { failed: 'dtr_unavailable' };
}

/** The operation's output (`dtr-qpackage-output-parameters`): Parameters with a PackageBundle Bundle. */
function holdsPackageBundle(json: unknown): boolean {
  const { resourceType, parameter } = (json ?? {}) as { resourceType?: unknown; parameter?: unknown };
  if (resourceType !== 'Parameters' || !Array.isArray(parameter)) return false;
  return parameter.some(
    (entry: { name?: unknown; resource?: { resourceType?: unknown } } | null) =>
      entry?.name === 'PackageBundle' && entry.resource?.resourceType === 'Bundle',
  );
}

function failed(reason: QuestionnaireFallbackReason): FetchedQuestionnairePackage {
  return { kind: 'failed', reason };
}

/** The operation's input asking for the given canonicals, as a DTR client sends it. */
export function questionnairePackageRequest(canonicals: readonly string[]): FhirResource {
  return {
    resourceType: 'Parameters',
    id: 'questionnaire-package-request',
    parameter: canonicals.map((canonical) => ({ name: 'questionnaire', valueCanonical: canonical })),
  };
}
