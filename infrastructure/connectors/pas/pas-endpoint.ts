import type { EndpointConnectorSettings } from '../../../domain/connectors/connector-settings';
import type { WebhookTargetPolicy } from '../../webhooks/target-policy';
import { connectorAuthorization, postToConnector, refuseUnsuccessfulAnswer } from '../outbound-post';

/** A payer's Da Vinci PAS operations: each takes a request Bundle and returns the answer's body. */
export interface PasEndpoint {
  /** `Claim/$submit`: a PAS request Bundle in, a ClaimResponse Bundle (or OperationOutcome) out. */
  submit(bundle: string): Promise<string>;
  /** `Claim/$inquire`: a PAS inquiry Bundle in, Parameters of ClaimResponse Bundles out. */
  inquire(bundle: string): Promise<string>;
}

/** Where an account's payer takes PAS requests, as its `prior_authorization` connector says. */
export type PasEndpointSettings = Pick<EndpointConnectorSettings, 'url' | 'auth' | 'timeoutMs'>;

/** A ClaimResponse Bundle with its echoed resources is tens of kilobytes; far more is not one answer. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const FHIR_JSON = 'application/fhir+json';

/** The live PAS endpoint: one HTTP POST per operation, through the SSRF policy. */
export class HttpPasEndpoint implements PasEndpoint {
  constructor(
    private readonly settings: PasEndpointSettings,
    private readonly policy: WebhookTargetPolicy,
  ) {}

  submit(bundle: string): Promise<string> {
    return this.post('Claim/$submit', bundle, { readRefusals: true });
  }

  /** A refusal of an inquiry says nothing of the request the payer holds: it stays an error. */
  inquire(bundle: string): Promise<string> {
    return this.post('Claim/$inquire', bundle, { readRefusals: false });
  }

  private async post(
    operation: string,
    bundle: string,
    { readRefusals }: { readRefusals: boolean },
  ): Promise<string> {
    const answer = await postToConnector(
      `${this.settings.url.replace(/\/+$/, '')}/${operation}`,
      bundle,
      { 'Content-Type': FHIR_JSON, Accept: FHIR_JSON, ...connectorAuthorization(this.settings.auth) },
      { policy: this.policy, timeoutMs: this.settings.timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES },
    );
    if (!(readRefusals && refusalToReview(answer.status, answer.body))) {
      refuseUnsuccessfulAnswer(answer, 'the PAS endpoint');
    }
    return answer.body;
  }
}

/** Statuses that say something about the call (credentials, address, time, throttling), never the request's merits. */
const TRANSPORT_STATUSES = new Set([401, 403, 404, 408, 429]);
/**
 * FHIR issue types by which a server refuses a request on its merits rather than for its form.
 * `duplicate` and `conflict` are left out: a retried submission the payer already took answers so.
 */
const REFUSALS_ON_MERITS = new Set(['business-rule', 'processing', 'not-supported', 'incomplete']);
const IGNORABLE_SEVERITIES = new Set(['information', 'warning']);

/**
 * Whether a failed answer is a PAS server refusing the request for review: a 4xx (other than the
 * transport statuses) whose body is a FHIR OperationOutcome refusing it on its merits. It is read
 * like a 200 OperationOutcome, as the payer not taking the request (not_submitted).
 */
function refusalToReview(status: number, body: string): boolean {
  if (status < 400 || status >= 500 || TRANSPORT_STATUSES.has(status)) return false;
  try {
    const outcome = JSON.parse(body) as {
      resourceType?: unknown;
      issue?: Array<{ code?: unknown; severity?: unknown }>;
    };
    const errors = Array.isArray(outcome.issue)
      ? outcome.issue.filter((issue) => !IGNORABLE_SEVERITIES.has(String(issue?.severity)))
      : [];
    return (
      outcome.resourceType === 'OperationOutcome' &&
      errors.length > 0 &&
      errors.every((issue) => REFUSALS_ON_MERITS.has(String(issue?.code)))
    );
  } catch {
    return false;
  }
}
