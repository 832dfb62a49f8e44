import { catalogFallback } from '../../../domain/payers/coverage-requirements';
import type {
  CoverageRequirementsAnswer,
  CoverageRequirementsQuery,
  CrdFallbackReason,
} from '../../../domain/payers/coverage-requirements';
import type { WebhookTargetPolicy } from '../../webhooks/target-policy';
import { postToConnector } from '../outbound-post';
import type { PostedAnswer } from '../outbound-post';
import { hookInstanceOf, orderSignRequest, orderSignSubject } from './order-sign-request';
import {
  CrdAnswerWithoutCoverageInformationError,
  InvalidCrdAnswerError,
  readOrderSignResponse,
} from './order-sign-response';

/** Where a payer's CRD `order-sign` service answers: its own URL (`…/cds-services/<id>`) and time limit. */
export interface CrdEndpoint {
  url: string;
  timeoutMs: number;
}

/** A CDS Hooks answer with a card or two and the order echoed back is a few kilobytes. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Asks a payer's CRD service what the case's order needs, over CDS Hooks `order-sign`, with the JWT
 * `bearer` signs for this call. The service's failures never fail the case: a refused, broken or
 * unsuccessful call, one past the time limit, an unreadable answer and an answer about nothing each
 * give the catalog fallback with its reason. A failure to sign the JWT is ours, and is thrown.
 */
export async function discoverCoverageRequirements(
  endpoint: CrdEndpoint,
  bearer: () => Promise<string>,
  query: CoverageRequirementsQuery,
  policy: WebhookTargetPolicy,
): Promise<CoverageRequirementsAnswer> {
  const request = JSON.stringify(orderSignRequest(query, hookInstanceOf(query.caseId)));
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    Authorization: `Bearer ${await bearer()}`,
  };
  const deadline = Date.now() + endpoint.timeoutMs;
  let answer: PostedAnswer;
  try {
    answer = await postToConnector(endpoint.url, request, headers, {
      policy,
      timeoutMs: endpoint.timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
  } catch {
    // The post fails with the same error type whether it was refused, broken or out of time; the clock tells which.
    return fallback(Date.now() >= deadline ? 'crd_timed_out' : 'crd_unavailable');
  }
  if (answer.status < 200 || answer.status >= 300) return fallback('crd_unavailable');
  return readAnswer(answer.body, query.caseId);
}

function readAnswer(body: string, caseId: string): CoverageRequirementsAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return fallback('crd_invalid_answer');
  }
  try {
    return { kind: 'answered', requirements: readOrderSignResponse(parsed, orderSignSubject(caseId)) };
  } catch (error) {
    if (error instanceof InvalidCrdAnswerError) return fallback('crd_invalid_answer');
    if (error instanceof CrdAnswerWithoutCoverageInformationError)
      return {
        kind: 'fallback',
        requirements: { ...catalogFallback('crd_no_coverage_information'), instructions: error.instructions },
      };
    throw error;
  }
}

function fallback(reason: CrdFallbackReason): CoverageRequirementsAnswer {
  return { kind: 'fallback', requirements: catalogFallback(reason) };
}
