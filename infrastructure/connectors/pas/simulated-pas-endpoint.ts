import type {
  PayerPriorAuthAnswer,
  PriorAuthorizationChannel,
} from '../../../domain/payers/prior-authorization-exchange';
import { JsonNode } from './json-node';
import {
  PAS_EXTENSION,
  PAS_PROFILE,
  PENDED_REVIEW_ACTION,
  REVIEW_ACTION_OF_RESULT,
  SYSTEM,
} from './pas-codes';
import { MalformedPasRequestError } from './pas-errors';
import { PasPriorAuthorizationChannel } from './pas-channel';
import type { PasEndpoint } from './pas-endpoint';
import { resourceUrn } from './pas-request';

/** What the sandbox's payer reads from a PAS request Bundle to address its answer. */
export interface PasRequestFacts {
  bundleIdentifier: { system: string | null; value: string };
  claimIdentifier: string;
  claimUrl: string;
  patient: string;
  insurer: string;
  provider: string;
}

/**
 * Checks that a Bundle is a PAS request (a collection whose first entry is a Claim with use
 * preauthorization, an identifier, a focal insurance, at least one item with a productOrService, and
 * patient, insurer, provider and coverage references that resolve inside the Bundle) and returns what
 * an answer echoes. A Bundle that is not one is a MalformedPasRequestError naming the rule and path.
 */
export function readPasRequest(body: string): PasRequestFacts {
  const bundle = JsonNode.parse(body, '$', MalformedPasRequestError);
  if (bundle.get('resourceType').string() !== 'Bundle') bundle.get('resourceType').fail('Expected a Bundle');
  if (bundle.get('type').string() !== 'collection')
    bundle.get('type').fail('A PAS request Bundle is a collection');
  const identifier = bundle.get('identifier');
  const entries = bundle.get('entry').items();
  const first = entries[0];
  if (!first) return bundle.get('entry').fail('A PAS request Bundle has at least one entry');
  const claim = first.get('resource');
  if (claim.get('resourceType').string() !== 'Claim')
    claim.get('resourceType').fail('The first entry of a PAS request Bundle is its Claim');
  if (claim.get('use').string() !== 'preauthorization')
    claim.get('use').fail('A PAS Claim has use preauthorization');
  if (claim.get('status').string() !== 'active') claim.get('status').fail('A PAS Claim has status active');
  const claimIdentifier = claim.get('identifier').items()[0];
  if (!claimIdentifier) return claim.get('identifier').fail('A PAS Claim has an identifier');
  if (!claim.get('priority').get('coding').items()[0]?.get('code').string())
    claim.get('priority').fail('A PAS Claim has a priority');
  const insurance = claim.get('insurance').items();
  if (!insurance.some((coverage) => coverage.get('focal').value === true))
    claim.get('insurance').fail('A PAS Claim has a focal insurance');
  const items = claim.get('item').items();
  if (items.length === 0) claim.get('item').fail('A PAS Claim has at least one item');
  for (const item of items) {
    if (!item.get('productOrService').present)
      item.get('productOrService').fail('A PAS Claim item names its productOrService');
  }
  const urls = entries.map((entry) => entry.get('fullUrl').string());
  // A relative reference (`Patient/123`) resolves against the base of the entries' absolute fullUrls.
  const resolved = (reference: JsonNode): string => {
    const target = reference.get('reference').string();
    const url = urls.find((fullUrl) => fullUrl === target || fullUrl.endsWith(`/${target}`));
    if (!url) return reference.get('reference').fail('The reference does not resolve inside the Bundle');
    return url;
  };
  for (const coverage of insurance) resolved(coverage.get('coverage'));
  return {
    bundleIdentifier: {
      system: identifier.get('system').optionalString(),
      value: identifier.get('value').string(),
    },
    claimIdentifier: claimIdentifier.get('value').string(),
    claimUrl: first.get('fullUrl').string(),
    patient: resolved(claim.get('patient')),
    insurer: resolved(claim.get('insurer')),
    provider: resolved(claim.get('provider')),
  };
}

/**
 * Writes the PAS ClaimResponse Bundle that states an answer to the request read: what a PAS payer
 * would send back, and what the sandbox's payer does send back, so test mode runs the same reader
 * and mapping as live mode.
 */
export function writeClaimResponseBundle(
  answer: PayerPriorAuthAnswer,
  request: PasRequestFacts,
  answeredAt: Date,
): string {
  const responseUrl = resourceUrn(request.claimIdentifier, `claim-response-${answer.kind}`);
  const questions = answer.kind === 'pended' ? (answer.information_request?.questions ?? []) : [];
  const communicationRequests = questions.map((question, index) => {
    const url = resourceUrn(request.claimIdentifier, `communication-request-${index + 1}`);
    return {
      fullUrl: url,
      resource: {
        resourceType: 'CommunicationRequest',
        id: url.slice('urn:uuid:'.length),
        meta: { profile: [PAS_PROFILE.communicationRequest] },
        identifier: [{ value: question.id }],
        status: 'active',
        subject: { reference: request.patient },
        payload: [{ contentString: question.text }],
        occurrenceDateTime: answer.kind === 'pended' ? answer.information_request!.due_at : undefined,
        requester: { reference: request.insurer },
        recipient: [{ reference: request.provider }],
      },
    };
  });
  const claimResponse = {
    resourceType: 'ClaimResponse',
    id: responseUrl.slice('urn:uuid:'.length),
    meta: { profile: [PAS_PROFILE.claimResponse] },
    ...(answer.payer_reference !== null && {
      identifier: [{ system: SYSTEM.payerReference, value: answer.payer_reference }],
    }),
    status: 'active',
    type: { coding: [{ system: SYSTEM.claimType, code: 'professional' }] },
    use: 'preauthorization',
    patient: { reference: request.patient },
    created: answer.kind === 'determined' ? answer.determination.decided_at : answeredAt.toISOString(),
    insurer: { reference: request.insurer },
    requestor: { reference: request.provider },
    request: {
      reference: request.claimUrl,
      identifier: { system: SYSTEM.caseIdentifier, value: request.claimIdentifier },
    },
    ...outcomeOf(answer),
    ...(communicationRequests.length > 0 && {
      communicationRequest: communicationRequests.map((entry) => ({ reference: entry.fullUrl })),
    }),
  };
  return JSON.stringify({
    resourceType: 'Bundle',
    meta: { profile: [PAS_PROFILE.responseBundle] },
    identifier: {
      ...(request.bundleIdentifier.system !== null && { system: request.bundleIdentifier.system }),
      value: request.bundleIdentifier.value,
    },
    type: 'collection',
    timestamp: answeredAt.toISOString(),
    entry: [{ fullUrl: responseUrl, resource: claimResponse }, ...communicationRequests],
  });
}

function outcomeOf(answer: PayerPriorAuthAnswer) {
  switch (answer.kind) {
    case 'not_submitted':
      return {
        outcome: 'error',
        error: [
          {
            code: {
              coding: [
                { system: SYSTEM.notSubmittedReason, code: answer.reason_code, display: answer.reason },
              ],
            },
          },
        ],
      };
    case 'pended':
      return {
        outcome: 'complete',
        item: [{ itemSequence: 1, adjudication: [adjudication(PENDED_REVIEW_ACTION, [])] }],
      };
    case 'determined': {
      const determination = answer.determination;
      const period = {
        ...(determination.authorization_start_date !== null && {
          start: determination.authorization_start_date,
        }),
        ...(determination.authorization_expiration !== null && {
          end: determination.authorization_expiration,
        }),
      };
      return {
        outcome: 'complete',
        disposition: determination.detail,
        ...(determination.authorization_number !== null && {
          preAuthRef: determination.authorization_number,
        }),
        item: [
          {
            extension: [
              ...(Object.keys(period).length > 0
                ? [{ url: PAS_EXTENSION.itemPreAuthPeriod, valuePeriod: period }]
                : []),
              ...(determination.approved_quantity !== null
                ? [
                    {
                      url: PAS_EXTENSION.itemAuthorizedDetail,
                      extension: [
                        { url: 'quantity', valueQuantity: { value: determination.approved_quantity } },
                      ],
                    },
                  ]
                : []),
            ],
            itemSequence: 1,
            adjudication: [
              adjudication(REVIEW_ACTION_OF_RESULT[determination.result], [
                {
                  url: 'reasonCode',
                  valueCodeableConcept: {
                    coding: [
                      {
                        system: SYSTEM.determinationDetail,
                        code: determination.detail_code,
                        display: determination.detail,
                      },
                    ],
                  },
                },
                ...(determination.authorization_number !== null
                  ? [{ url: 'number', valueString: determination.authorization_number }]
                  : []),
              ]),
            ],
          },
        ],
      };
    }
  }
}

function adjudication(reviewAction: string, more: object[]) {
  return {
    extension: [
      {
        url: PAS_EXTENSION.reviewAction,
        extension: [
          {
            url: PAS_EXTENSION.reviewActionCode,
            valueCodeableConcept: { coding: [{ system: SYSTEM.x12ReviewAction, code: reviewAction }] },
          },
          ...more,
        ],
      },
    ],
    category: { coding: [{ system: SYSTEM.adjudication, code: 'submitted' }] },
  };
}

/**
 * The sandbox's PAS endpoint: constructed with an answer already decided (by the payer simulator),
 * it reads each request Bundle it receives as a PAS payer would, refusing one that is not a PAS
 * request, and answers the ClaimResponse Bundle stating that answer.
 */
export class SimulatedPasEndpoint implements PasEndpoint {
  constructor(
    private readonly answer: PayerPriorAuthAnswer,
    private readonly now: () => Date = () => new Date(),
  ) {}

  submit(bundle: string): Promise<string> {
    return this.respond(bundle);
  }

  inquire(bundle: string): Promise<string> {
    return this.respond(bundle);
  }

  private async respond(bundle: string): Promise<string> {
    return writeClaimResponseBundle(this.answer, readPasRequest(bundle), this.now());
  }
}

/**
 * Test mode's channel: the decider (the payer simulator) decides, and its answer travels back as a
 * PAS ClaimResponse through the same writer, reader and mapping as a live PAS endpoint's.
 */
export function simulatedPasChannel(
  decider: PriorAuthorizationChannel,
  now: () => Date = () => new Date(),
): PriorAuthorizationChannel {
  const through = (answer: PayerPriorAuthAnswer) =>
    new PasPriorAuthorizationChannel(new SimulatedPasEndpoint(answer, now), { now });
  return {
    async submit(input) {
      return through(await decider.submit(input)).submit(input);
    },
    async inquire(input) {
      return through(await decider.inquire(input)).inquire(input);
    },
    async answerInformationRequest(input) {
      return through(await decider.answerInformationRequest(input)).answerInformationRequest(input);
    },
  };
}
