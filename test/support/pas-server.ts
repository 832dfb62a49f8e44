import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { InformationQuestion } from '../../domain/payers/prior-authorization-exchange';
import {
  PasRequestFacts,
  readPasRequest,
  writeClaimResponseBundle,
} from '../../infrastructure/connectors/pas/simulated-pas-endpoint';
import { ClearinghouseReply, ClearinghouseRequest, ClearinghouseServer } from './clearinghouse-server';
import { JsonObject } from './case-journeys';

/** Which of the payer's operations a request reached: an information answer is an updated `$submit`. */
export type PasExchange = 'submit' | 'inquire' | 'information';

export interface PasServerRequest extends ClearinghouseRequest {
  exchange: PasExchange;
  /** The case the request is about: its Claim's identifier. */
  caseId: string;
  bundle: JsonObject;
}

/** How the payer answers one request, from what the request says. */
export type PasReply = (request: PasRequestFacts) => ClearinghouseReply;

const FHIR_JSON = { 'Content-Type': 'application/fhir+json' };
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'pas');
const fixture = (name: string) => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as JsonObject;

/**
 * A payer's Da Vinci PAS endpoint on loopback: it records each `Claim/$submit` and `Claim/$inquire`
 * and answers each case's requests with the replies scripted for that case, per exchange, in order;
 * the last reply of an exchange answers every later request of it, as a payer keeps saying the same
 * until it decides.
 */
export class PasServer {
  readonly requests: PasServerRequest[] = [];
  private readonly scripts = new Map<string, Partial<Record<PasExchange, PasReply[]>>>();
  private readonly server = new ClearinghouseServer((request) => this.answer(request));

  /** The FHIR base a `prior_authorization` connector points to. */
  async start(): Promise<string> {
    return `${new URL(await this.server.start()).origin}/fhir`;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  script(caseId: string, replies: Partial<Record<PasExchange, PasReply[]>>): void {
    this.scripts.set(caseId, replies);
  }

  requestsFor(caseId: string, exchange?: PasExchange): PasServerRequest[] {
    return this.requests.filter(
      (request) => request.caseId === caseId && (exchange === undefined || request.exchange === exchange),
    );
  }

  private answer(request: ClearinghouseRequest): ClearinghouseReply {
    const facts = readPasRequest(request.body);
    const exchange: PasExchange = request.url.endsWith('/Claim/$inquire')
      ? 'inquire'
      : /-information-\d+$/.test(facts.bundleIdentifier.value)
        ? 'information'
        : 'submit';
    this.requests.push({
      ...request,
      exchange,
      caseId: facts.claimIdentifier,
      bundle: JSON.parse(request.body) as JsonObject,
    });
    const replies = this.scripts.get(facts.claimIdentifier)?.[exchange] ?? [];
    const reply = replies.length > 1 ? replies.shift()! : replies[0];
    return reply ? reply(facts) : { status: 404, headers: FHIR_JSON, body: operationOutcome('not-found') };
  }
}

const PAYER_REFERENCE = 'PAYER-TRACE-0001';

/** The payer has the request under review (X12 306 A4), asking for information when given questions. */
export function pended(information?: { questions: InformationQuestion[]; due_at: string }): PasReply {
  return (request) =>
    fhir(
      writeClaimResponseBundle(
        {
          kind: 'pended',
          payer_reference: PAYER_REFERENCE,
          information_request: information ? { kind: 'information_requested', ...information } : null,
        },
        request,
        new Date(),
      ),
    );
}

export interface Authorization {
  number: string;
  quantity: number;
  start: string;
  end: string;
}

/** The IG's certified example (A1), addressed to the request, with this authorization's terms. */
export function approved(authorization: Authorization): PasReply {
  return (request) =>
    fhir(
      fromFixture('valid_pa_response_bundle.json', request, (claimResponse) => {
        claimResponse.preAuthRef = authorization.number;
        const [item] = claimResponse.item as JsonObject[];
        for (const extension of item!.extension as JsonObject[]) {
          if (String(extension.url).endsWith('itemPreAuthPeriod'))
            extension.valuePeriod = { start: authorization.start, end: authorization.end };
          if (String(extension.url).endsWith('itemAuthorizedDetail'))
            (extension.extension as JsonObject[]).find((part) => part.url === 'quantity')!.valueQuantity = {
              value: authorization.quantity,
            };
        }
      }),
    );
}

/** The IG's not-certified example (A3), addressed to the request. */
export function denied(): PasReply {
  return (request) => fhir(fromFixture('valid_pa_response_bundle_denial.json', request, () => {}));
}

/**
 * A ClaimResponse with outcome error and an X12 901 reject reason (75: subscriber not found), whose
 * free-text disposition quotes the patient, as payers' texts may.
 */
export function rejected(disposition: string): PasReply {
  return (request) =>
    fhir(
      fromFixture('valid_pa_response_bundle.json', request, (claimResponse) => {
        claimResponse.outcome = 'error';
        claimResponse.disposition = disposition;
        delete claimResponse.item;
        claimResponse.error = [
          { code: { coding: [{ system: 'https://codesystem.x12.org/005010/901', code: '75' }] } },
        ];
      }),
    );
}

/** An OperationOutcome: the endpoint would not process the request at all (with 200, or a 4xx as PAS servers often send). */
export function refused(diagnostics: string, status = 200): PasReply {
  return () => ({ status, headers: FHIR_JSON, body: operationOutcome('business-rule', diagnostics) });
}

/** The certified example with an outcome no ClaimResponse has. */
export function malformed(): PasReply {
  return (request) =>
    fhir(
      fromFixture('valid_pa_response_bundle.json', request, (claimResponse) => {
        claimResponse.outcome = 'certified';
      }),
    );
}

/** A 503, asking for a retry after `retryAfterSeconds` if given. */
export function unavailable(retryAfterSeconds?: number): PasReply {
  const headers: Record<string, string> =
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
  return () => ({ status: 503, headers });
}

function fhir(body: string): ClearinghouseReply {
  return { status: 200, headers: FHIR_JSON, body };
}

/** A fixture's ClaimResponse, answering this request: the payer's trace number, our claim identifier, now. */
function fromFixture(
  name: string,
  request: PasRequestFacts,
  edit: (claimResponse: JsonObject) => void,
): string {
  const bundle = fixture(name);
  const claimResponse = (bundle.entry as JsonObject[])[0]!.resource as JsonObject;
  (claimResponse.identifier as JsonObject[])[0]!.value = PAYER_REFERENCE;
  claimResponse.request = { identifier: { value: request.claimIdentifier } };
  claimResponse.created = new Date().toISOString();
  bundle.timestamp = claimResponse.created;
  edit(claimResponse);
  return JSON.stringify(bundle);
}

function operationOutcome(code: string, diagnostics?: string): string {
  return JSON.stringify({
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, ...(diagnostics !== undefined && { diagnostics }) }],
  });
}
