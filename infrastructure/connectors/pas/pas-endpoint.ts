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
    return this.post('Claim/$submit', bundle);
  }

  inquire(bundle: string): Promise<string> {
    return this.post('Claim/$inquire', bundle);
  }

  private async post(operation: string, bundle: string): Promise<string> {
    const answer = await postToConnector(
      `${this.settings.url.replace(/\/+$/, '')}/${operation}`,
      bundle,
      { 'Content-Type': FHIR_JSON, Accept: FHIR_JSON, ...connectorAuthorization(this.settings.auth) },
      { policy: this.policy, timeoutMs: this.settings.timeoutMs, maxAnswerBytes: MAX_ANSWER_BYTES },
    );
    refuseUnsuccessfulAnswer(answer, 'the PAS endpoint');
    return answer.body;
  }
}
