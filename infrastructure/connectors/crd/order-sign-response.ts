import { COVERED, DOC_NEEDED, INFO_NEEDED, PA_NEEDED } from '../../../domain/payers/coverage-requirements';
import type {
  CoverageInstruction,
  CoverageRequirements,
  Covered,
  PaNeeded,
} from '../../../domain/payers/coverage-requirements';
import { ConnectorError } from '../../../domain/failures';
import { JsonNode } from '../pas/json-node';
import { COVERAGE_INFORMATION_EXTENSION } from './cds-hooks';
import type { OrderSignSubject } from './order-sign-request';

/**
 * Reads a CRD service's answer to `order-sign` (a CDS Hooks response) into the requirements a prior
 * authorization keeps: the `coverage-information` extension the service put on the draft order (an
 * `update` system action, or an `update` action a card suggests) and each card's text as an
 * instruction to the clinician.
 */

/**
 * A CRD answer that breaks CDS Hooks or the CRD coverage-information extension: named by the rule and
 * the JSON path, never by a value, since the answer echoes the patient's order.
 */
export class InvalidCrdAnswerError extends ConnectorError {
  override readonly name = 'InvalidCrdAnswerError';

  constructor(
    readonly rule: string,
    readonly path: string,
  ) {
    super(`${rule} (at ${path}).`, { transient: false, answerUnreadable: true });
  }
}

/** A well-formed answer that says nothing about the order's coverage; its cards still instruct. */
export class CrdAnswerWithoutCoverageInformationError extends Error {
  override readonly name = 'CrdAnswerWithoutCoverageInformationError';

  constructor(readonly instructions: CoverageInstruction[]) {
    super('The CRD answer has no coverage-information extension on the draft order.');
  }
}

/** CDS Hooks: "summary: one-sentence, <140-character summary message". */
const MAX_SUMMARY_CHARACTERS = 140;
/** A card's Markdown is a few paragraphs; far more is not an instruction anyone reads. */
const MAX_DETAIL_CHARACTERS = 4000;

/**
 * One coverage-information extension per coverage the service assessed. With `subject`, only updates
 * of the case's draft order count, and the assertion about the case's coverage wins; otherwise (or
 * when none names it) the most restrictive assertion wins, so a second coverage needing authorization
 * is never read as "no authorization needed".
 */
export function readOrderSignResponse(body: unknown, subject?: OrderSignSubject): CoverageRequirements {
  const answer = new JsonNode(body, 'response', InvalidCrdAnswerError);
  const cards = answer.get('cards').items();
  const actions = [
    ...answer.get('systemActions').items(),
    ...cards.flatMap((card) =>
      card
        .get('suggestions')
        .items()
        .flatMap((suggestion) => suggestion.get('actions').items()),
    ),
  ];
  const assertions = actions
    .filter((action) => isUpdateOfTheOrder(action, subject))
    .flatMap((action) => action.get('resource').extensions(COVERAGE_INFORMATION_EXTENSION))
    .map(readCoverageInformation);
  const instructions = cards.map(readInstruction);
  const chosen = choose(assertions, subject);
  if (!chosen) throw new CrdAnswerWithoutCoverageInformationError(instructions);
  const { coverageReference: _coverage, ...requirements } = chosen;
  return { source: 'crd', ...requirements, instructions, fallback_reason: null };
}

const ACTION_TYPES = new Set(['create', 'update', 'delete']);

/**
 * Coverage information belongs on the order it assesses: a `create` action proposes another order
 * (an alternative drug) whose coverage is not the case's.
 */
function isUpdateOfTheOrder(action: JsonNode, subject: OrderSignSubject | undefined): boolean {
  const type = action.get('type').string();
  if (!ACTION_TYPES.has(type)) action.get('type').fail('Expected an action type of create, update or delete');
  if (type !== 'update') return false;
  const resource = action.get('resource');
  if (!resource.present) action.fail('Expected an update action to carry its resource');
  return (
    !subject ||
    (resource.get('resourceType').string() === 'MedicationRequest' &&
      resource.get('id').string() === subject.orderId)
  );
}

type Assertion = Omit<CoverageRequirements, 'source' | 'instructions' | 'fallback_reason'> & {
  coverageReference: string | null;
};

/** The 2.0.1 slices a case keeps, plus `expiry-date`, which CRD 2.1 adds; `date` is when the payer asserted, not until when. */
function readCoverageInformation(extension: JsonNode): Assertion {
  const slices = extension.get('extension').items();
  const named = (name: string) => slices.filter((slice) => slice.get('url').string() === name);
  const single = (name: string): JsonNode | undefined => {
    const found = named(name);
    if (found.length > 1) found[1]!.fail(`Expected at most one ${name}`);
    return found[0];
  };
  const covered = single('covered') ?? extension.fail('Expected a covered slice');
  const coverage = single('coverage');
  const paNeeded = single('pa-needed');
  const docNeeded = single('doc-needed');
  const expiry = single('expiry-date');
  const satisfiedBy = single('satisfied-pa-id');
  return {
    coverageReference: coverage ? coverage.get('valueReference').get('reference').optionalString() : null,
    covered: codeOf(covered, COVERED, 'covered'),
    pa_needed: paNeeded ? codeOf(paNeeded, PA_NEEDED, 'pa-needed') : null,
    doc_needed: docNeeded ? codeOf(docNeeded, DOC_NEEDED, 'doc-needed') : null,
    info_needed: named('info-needed').map((slice) => codeOf(slice, INFO_NEEDED, 'info-needed')),
    questionnaires: named('questionnaire').map((slice) => slice.get('valueCanonical').string()),
    reason:
      named('reason')
        .map(reasonText)
        .find((text) => text !== null) ?? null,
    expires_at: expiry ? fhirDate(expiry.get('valueDate')) : null,
    satisfied_pa_id: satisfiedBy ? satisfiedBy.get('valueString').string() : null,
  };
}

function codeOf<Code extends string>(slice: JsonNode, codes: readonly Code[], name: string): Code {
  const value = slice.get('valueCode');
  const code = value.string();
  if (!(codes as readonly string[]).includes(code)) value.fail(`Expected a ${name} code of CRD 2.0.1`);
  return code as Code;
}

/** What the payer coded its reason as: its text, else a coding's display. */
function reasonText(slice: JsonNode): string | null {
  const concept = slice.get('valueCodeableConcept');
  const text = concept.get('text').optionalString();
  if (text) return text;
  const displays = concept
    .get('coding')
    .items()
    .map((coding) => coding.get('display').optionalString());
  return displays.find((display) => display !== null) ?? null;
}

const FHIR_DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;

function fhirDate(node: JsonNode): string {
  const date = node.string();
  if (!FHIR_DATE.test(date)) node.fail('Expected a FHIR date');
  return date;
}

function readInstruction(card: JsonNode): CoverageInstruction {
  const summary = card.get('summary').string();
  const detail = card.get('detail').optionalString()?.trim();
  return {
    summary: shortened(summary.trim(), MAX_SUMMARY_CHARACTERS),
    detail: detail ? shortened(detail, MAX_DETAIL_CHARACTERS) : null,
  };
}

function shortened(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** Higher is more restrictive. An assertion without pa-needed leaves the question open: above the two answers that end a case. */
const PA_NEEDED_RESTRICTION: Record<PaNeeded | 'absent', number> = {
  'no-auth': 0,
  satisfied: 1,
  absent: 2,
  performpa: 3,
  conditional: 4,
  'auth-needed': 5,
};
const COVERED_RESTRICTION: Record<Covered, number> = { covered: 0, conditional: 1, 'not-covered': 2 };

function choose(assertions: Assertion[], subject: OrderSignSubject | undefined): Assertion | undefined {
  const ours = subject
    ? assertions.filter((assertion) => referencesCoverage(assertion.coverageReference, subject.coverageId))
    : [];
  const candidates = ours.length > 0 ? ours : assertions;
  return candidates.reduce<Assertion | undefined>(
    (most, assertion) => (!most || restriction(assertion) > restriction(most) ? assertion : most),
    undefined,
  );
}

function restriction(assertion: Assertion): number {
  return (
    PA_NEEDED_RESTRICTION[assertion.pa_needed ?? 'absent'] * 10 +
    COVERED_RESTRICTION[assertion.covered ?? 'covered']
  );
}

/** `Coverage/<id>`, relative or absolute. */
function referencesCoverage(reference: string | null, coverageId: string): boolean {
  return (
    reference !== null &&
    (reference === `Coverage/${coverageId}` || reference.endsWith(`/Coverage/${coverageId}`))
  );
}
