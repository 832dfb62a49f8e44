import type {
  InformationQuestion,
  PayerPriorAuthAnswer,
} from '../../../domain/payers/prior-authorization-exchange';
import { JsonNode } from './json-node';
import { REVIEW_ACTIONS, ReviewActionMeaning, PAS_EXTENSION, SYSTEM } from './pas-codes';
import { MalformedPasResponseError, UnexpectedPasResponseError } from './pas-errors';

/**
 * Reads a PAS endpoint's answer (a ClaimResponse Bundle, the `$inquire` Parameters around one, or an
 * OperationOutcome) into what it says about the request, then maps that to the case's
 * PayerPriorAuthAnswer. Anything else is a MalformedPasResponseError or UnexpectedPasResponseError
 * naming the rule and the JSON path; nothing else escapes, whatever the bytes.
 */

/** What a ClaimResponse says, before it becomes a case's answer. */
export interface ClaimResponseFacts {
  /** Where the ClaimResponse is in the answer, for the messages of the mapping's errors. */
  path: string;
  /**
   * The payer's own reference for the request: an identifier it labels as such (the sandbox's), else
   * its authorization number (preAuthRef), else the first item's review action number, else the
   * first identifier that is not a trace number. ClaimResponse.identifier[0] alone would not do: in
   * the IG's examples it is the PATIENT_EVENT_TRACE_NUMBER, which names the requester's transaction.
   */
  payerReference: string | null;
  outcome: 'queued' | 'complete' | 'error' | 'partial';
  created: string;
  preAuthRef: string | null;
  preAuthPeriod: { start: string | null; end: string | null } | null;
  /** The claim identifier the answer names, when it names one. */
  requestIdentifier: string | null;
  items: ItemFacts[];
  errors: Array<{ code: string; ours: { code: string; display: string | null } | null }>;
  communicationRequests: Array<{ id: string; text: string; dueAt: string | null }>;
}

interface ItemFacts {
  reviewAction: string | null;
  reviewNumber: string | null;
  /** The payer's own number for the item while it is pended (the IG's pended example: `PEND0001`). */
  administrationReference: string | null;
  detail: { code: string; display: string | null } | null;
  authorizedQuantity: number | null;
  period: { start: string | null; end: string | null } | null;
}

const OUTCOMES = ['queued', 'complete', 'error', 'partial'] as const;

/** Reads a PAS answer; an OperationOutcome (a request the endpoint would not process) reads as its first issue's type. */
export function readPasAnswer(body: string): ClaimResponseFacts | { operationOutcome: string } {
  const root = JsonNode.parse(body, '$', MalformedPasResponseError);
  const type = root.get('resourceType').string();
  if (type === 'OperationOutcome') return { operationOutcome: operationOutcomeCode(root) };
  if (type === 'Parameters') return readClaimResponseBundle(inquiryResponseBundle(root));
  if (type !== 'Bundle') root.get('resourceType').fail('Expected a Bundle, Parameters or OperationOutcome');
  return readClaimResponseBundle(root);
}

/** `$inquire` answers Parameters with 0..* `responseBundle` parts; the one for our request is the first. */
function inquiryResponseBundle(parameters: JsonNode): JsonNode {
  const bundles = parameters
    .get('parameter')
    .items()
    .filter((part) => part.get('name').string() === 'responseBundle');
  if (bundles.length === 0)
    parameters.get('parameter').fail('The inquiry found no prior authorization response for the request');
  const bundle = bundles[0]!.get('resource');
  if (bundle.get('resourceType').string() !== 'Bundle') bundle.get('resourceType').fail('Expected a Bundle');
  return bundle;
}

function readClaimResponseBundle(bundle: JsonNode): ClaimResponseFacts {
  if (bundle.get('type').string() !== 'collection')
    bundle.get('type').fail('A PAS response Bundle is a collection');
  const entries = bundle.get('entry').items();
  if (entries.length === 0) bundle.get('entry').fail('A PAS response Bundle has at least one entry');
  const claimResponse = entries[0]!.get('resource');
  if (claimResponse.get('resourceType').string() !== 'ClaimResponse')
    claimResponse.get('resourceType').fail('The first entry of a PAS response Bundle is its ClaimResponse');
  if (claimResponse.get('use').optionalString() !== 'preauthorization')
    claimResponse.get('use').fail('A PAS ClaimResponse has use preauthorization');

  const outcomeNode = claimResponse.get('outcome');
  const outcome = outcomeNode.string();
  if (!(OUTCOMES as readonly string[]).includes(outcome))
    outcomeNode.fail('Expected a ClaimResponse outcome code');

  const preAuthRef = claimResponse.get('preAuthRef').optionalString();
  const items = claimResponse.get('item').items().map(readItem);
  return {
    path: claimResponse.path,
    payerReference: payerReferenceOf(claimResponse.get('identifier').items(), preAuthRef, items),
    outcome: outcome as ClaimResponseFacts['outcome'],
    created: claimResponse.get('created').string(),
    preAuthRef,
    preAuthPeriod: period(claimResponse.get('preAuthPeriod')),
    requestIdentifier: claimResponse.get('request').present
      ? claimResponse.get('request').get('identifier').present
        ? claimResponse.get('request').get('identifier').get('value').optionalString()
        : null
      : null,
    items,
    errors: claimResponse
      .get('error')
      .items()
      .map((error) => {
        const codings = error.get('code').get('coding').items();
        const ours = codings.find(
          (coding) => coding.get('system').optionalString() === SYSTEM.notSubmittedReason,
        );
        const x12 = codings.find(
          (coding) => coding.get('system').optionalString() === SYSTEM.x12RejectReason,
        );
        const code = (x12 ?? ours ?? codings[0])?.get('code').string();
        if (!code) error.get('code').fail('A ClaimResponse error has a coded reason');
        const ourCode = ours?.get('code').string();
        return {
          code: codeOrGeneric(code, 'unknown'),
          ours:
            ours && ourCode && CODE_PATTERN.test(ourCode)
              ? { code: ourCode, display: ours.get('display').optionalString() }
              : null,
        };
      }),
    communicationRequests: claimResponse
      .get('communicationRequest')
      .items()
      .map((reference) => readCommunicationRequest(resolve(reference, entries, claimResponse))),
  };
}

function payerReferenceOf(
  identifiers: JsonNode[],
  preAuthRef: string | null,
  items: ItemFacts[],
): string | null {
  const valueOf = (identifier: JsonNode | undefined) => identifier?.get('value').optionalString() ?? null;
  const systemOf = (identifier: JsonNode) => identifier.get('system').optionalString() ?? '';
  return (
    valueOf(identifiers.find((identifier) => systemOf(identifier) === SYSTEM.payerReference)) ??
    preAuthRef ??
    items[0]?.reviewNumber ??
    items[0]?.administrationReference ??
    valueOf(identifiers.find((identifier) => !/TRACE_NUMBER$/i.test(systemOf(identifier))))
  );
}

function readItem(item: JsonNode): ItemFacts {
  const actions = item
    .get('adjudication')
    .items()
    .flatMap((adjudication) => adjudication.extensions(PAS_EXTENSION.reviewAction));
  if (actions.length > 1) actions[1]!.fail('Expected one review action per item');
  const action = actions[0];
  const codeExtension = action?.extension(PAS_EXTENSION.reviewActionCode);
  const reviewAction = codeExtension ? x12Code(codeExtension.get('valueCodeableConcept')) : null;
  const reasons = (action?.extensions('reasonCode') ?? []).flatMap((reason) =>
    reason.get('valueCodeableConcept').get('coding').items(),
  );
  const ours = reasons.find(
    (coding) =>
      coding.get('system').optionalString() === SYSTEM.determinationDetail &&
      CODE_PATTERN.test(coding.get('code').string()),
  );
  const detail = item.extension(PAS_EXTENSION.itemAuthorizedDetail);
  const quantity = detail?.extension('quantity')?.get('valueQuantity').get('value');
  const authorizedQuantity = quantity?.optionalNumber() ?? null;
  if (
    quantity &&
    authorizedQuantity !== null &&
    !(Number.isInteger(authorizedQuantity) && authorizedQuantity > 0)
  )
    quantity.fail('An authorized quantity is a whole number above zero');
  return {
    reviewAction,
    reviewNumber: action?.extension('number')?.get('valueString').optionalString() ?? null,
    administrationReference:
      item.extension(PAS_EXTENSION.administrationReferenceNumber)?.get('valueString').optionalString() ??
      null,
    detail: ours ? { code: ours.get('code').string(), display: ours.get('display').optionalString() } : null,
    authorizedQuantity,
    period: period(item.extension(PAS_EXTENSION.itemPreAuthPeriod)?.get('valuePeriod')),
  };
}

function x12Code(concept: JsonNode): string {
  const codings = concept.get('coding').items();
  const x12 = codings.find((coding) => coding.get('system').optionalString() === SYSTEM.x12ReviewAction);
  if (!x12) return concept.get('coding').fail('A review action is coded in X12 306');
  return x12.get('code').string();
}

function period(node: JsonNode | undefined): { start: string | null; end: string | null } | null {
  if (!node?.present) return null;
  return { start: node.get('start').optionalString(), end: node.get('end').optionalString() };
}

/** A reference to a bundled resource (by fullUrl or `Type/id`) or a contained one (`#id`). */
function resolve(reference: JsonNode, entries: JsonNode[], container: JsonNode): JsonNode {
  const target = reference.get('reference').string();
  if (target.startsWith('#')) {
    const contained = container
      .get('contained')
      .items()
      .find((resource) => `#${resource.get('id').optionalString() ?? ''}` === target);
    if (contained) return contained;
  }
  for (const entry of entries) {
    const resource = entry.get('resource');
    const typed = `${resource.get('resourceType').optionalString() ?? ''}/${resource.get('id').optionalString() ?? ''}`;
    if (entry.get('fullUrl').optionalString() === target || typed === target || target.endsWith(`/${typed}`))
      return resource;
  }
  return reference.get('reference').fail('The reference does not resolve inside the Bundle');
}

function readCommunicationRequest(request: JsonNode): { id: string; text: string; dueAt: string | null } {
  if (request.get('resourceType').string() !== 'CommunicationRequest')
    request.get('resourceType').fail('Expected a CommunicationRequest');
  const identifier = request.get('identifier').items()[0]?.get('value').optionalString();
  const payloads = request.get('payload').items();
  const text = payloads.map((payload) => payload.get('contentString').optionalString()).find(Boolean);
  if (!text)
    return request.get('payload').fail('An information request says what it asks in payload.contentString');
  const occurrence = request.get('occurrenceDateTime').optionalString();
  const periodEnd = request.get('occurrencePeriod').present
    ? request.get('occurrencePeriod').get('end').optionalString()
    : null;
  return {
    id: identifier ?? request.get('id').string(),
    text,
    dueAt: occurrence ?? periodEnd,
  };
}

function operationOutcomeCode(outcome: JsonNode): string {
  const issues = outcome.get('issue').items();
  if (issues.length === 0) outcome.get('issue').fail('An OperationOutcome has at least one issue');
  return codeOrGeneric(issues[0]!.get('code').string(), 'unknown');
}

/** A code the payer sent, kept only when it looks like one: it reaches history and webhooks, and free text may quote the patient. */
const CODE_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

function codeOrGeneric(code: string, generic: string): string {
  return CODE_PATTERN.test(code) ? code : generic;
}

/**
 * What the answer means for the case:
 * - outcome `error` (or an OperationOutcome): the payer did not take the request → not_submitted,
 *   with its coded reason (X12 901 reject reason), never its free text, which may quote the patient;
 * - an item with review action A4 (pended) or D (deferred), an outcome `queued`, or a communication
 *   request → pended, with the questions and due date of the information it asks for;
 * - otherwise the item's review action (A1, A2, A3, A6, C, CT, NA) is the determination; an
 *   approval without an authorized quantity approves the quantity requested, one authorizing less
 *   than requested is partially approved (`quantity_reduced`), and nothing but an approval carries a
 *   quantity, an authorization number or an authorization period. Its detail is the coded display of our own detail code (what the sandbox
 *   states) or the review action's text, never ClaimResponse.disposition, the payer's free text.
 * `sent` is our claim identifier and the quantity requested: an answer naming another request is refused.
 */
export function payerAnswerOf(
  read: ClaimResponseFacts | { operationOutcome: string },
  sent: { identifier: string; quantity: number },
): PayerPriorAuthAnswer {
  const sentIdentifier = sent.identifier;
  if ('operationOutcome' in read) {
    return {
      kind: 'not_submitted',
      payer_reference: null,
      reason_code: `fhir_${read.operationOutcome}`,
      reason: `The payer's PAS endpoint refused to process the request (FHIR issue type ${read.operationOutcome}).`,
    };
  }
  const facts = read;
  if (facts.requestIdentifier !== null && facts.requestIdentifier !== sentIdentifier)
    throw new UnexpectedPasResponseError(
      'The ClaimResponse answers another request than the one sent',
      `${facts.path}.request.identifier.value`,
    );

  if (facts.outcome === 'error') {
    const error = facts.errors[0];
    if (!error)
      throw new MalformedPasResponseError(
        'A ClaimResponse with outcome error names its error',
        `${facts.path}.error`,
      );
    return {
      kind: 'not_submitted',
      payer_reference: facts.payerReference,
      reason_code: error.ours?.code ?? `x12_reject_${error.code}`,
      reason:
        error.ours?.display ??
        `The payer did not accept the request for review (X12 reject reason ${error.code}).`,
    };
  }

  const payerReference = facts.payerReference ?? sentIdentifier;
  const item = facts.items[0];
  const meaning: ReviewActionMeaning | undefined = item?.reviewAction
    ? REVIEW_ACTIONS[item.reviewAction]
    : undefined;
  if (item?.reviewAction && !meaning)
    throw new UnexpectedPasResponseError(
      'The review action is not one this connector acts on (A1, A2, A3, A4, A6, C, CT, D, NA)',
      `${facts.path}.item[0].adjudication`,
    );

  const informationRequested = facts.communicationRequests.length > 0;
  if (informationRequested || facts.outcome === 'queued' || meaning?.kind === 'pended' || !item) {
    if (!informationRequested && !item && facts.outcome !== 'queued')
      throw new UnexpectedPasResponseError(
        'A completed ClaimResponse states a review action for the requested item',
        `${facts.path}.item`,
      );
    return {
      kind: 'pended',
      payer_reference: payerReference,
      information_request: informationRequested ? informationRequest(facts) : null,
    };
  }
  if (!meaning || meaning.kind !== 'determined')
    throw new UnexpectedPasResponseError(
      'The item states no review action',
      `${facts.path}.item[0].adjudication`,
    );

  const approved = meaning.result === 'approved' || meaning.result === 'partially_approved';
  const approvedQuantity = approved ? (item.authorizedQuantity ?? sent.quantity) : null;
  const stated = item.reviewAction === 'A1' ? quantityCut(meaning, approvedQuantity, sent.quantity) : meaning;
  const period = approved ? (item.period ?? facts.preAuthPeriod) : null;
  return {
    kind: 'determined',
    payer_reference: payerReference,
    determination: {
      result: stated.result,
      // Our reading of a smaller quantity is what the result says; the item's own detail spoke of the whole.
      detail_code: stated === meaning ? (item.detail?.code ?? meaning.detail_code) : stated.detail_code,
      detail: stated === meaning ? (item.detail?.display ?? meaning.detail) : stated.detail,
      decided_at: facts.created,
      authorization_number: approved ? (facts.preAuthRef ?? item.reviewNumber) : null,
      approved_quantity: approvedQuantity,
      authorization_start_date: period?.start ?? null,
      authorization_expiration: period?.end ?? null,
    },
  };
}

/**
 * An approval "in total" (A1) that authorizes less than was asked is a partial approval, as the case
 * defines one (docs/workflows.md): the clinic must know the patient gets fewer units than prescribed.
 */
function quantityCut(
  meaning: Extract<ReviewActionMeaning, { kind: 'determined' }>,
  approvedQuantity: number | null,
  requestedQuantity: number,
): Pick<typeof meaning, 'result' | 'detail_code' | 'detail'> {
  if (meaning.result !== 'approved' || approvedQuantity === null || approvedQuantity >= requestedQuantity)
    return meaning;
  return {
    result: 'partially_approved',
    detail_code: 'quantity_reduced',
    detail: 'The payer certified a lower quantity than was requested.',
  };
}

function informationRequest(facts: ClaimResponseFacts) {
  const dueDates = facts.communicationRequests.map((request) => request.dueAt);
  if (dueDates.some((due) => due === null || Number.isNaN(Date.parse(due))))
    throw new UnexpectedPasResponseError(
      'An information request states by when it must be answered',
      `${facts.path}.communicationRequest`,
    );
  const questions: InformationQuestion[] = facts.communicationRequests.map((request) => ({
    id: request.id,
    text: request.text,
  }));
  return {
    kind: 'information_requested' as const,
    questions,
    due_at: (dueDates as string[]).reduce((earliest, due) =>
      Date.parse(due) < Date.parse(earliest) ? due : earliest,
    ),
  };
}
