/**
 * SDC adaptive questionnaires (`$next-question`) as a prior authorization answers them: the payer's
 * DTR service serves the Questionnaire a few items at a time, from the answers it is sent, until it
 * says it is complete (docs/dtr.md, "Adaptive questionnaires"). Pure and deterministic: the workflow
 * merges each round's items into the case with these functions.
 */
import type {
  AdaptiveQuestionnaireState,
  CaseQuestionnaire,
  QuestionnaireFallbackReason,
  QuestionnaireItemState,
} from './questionnaire';
import { ANSWERABLE_ITEM_TYPES } from './questionnaire';
import { questionnaireResponseOf } from './questionnaire-response';
import { questionnaireState } from './questionnaire-answers';
import { withEnablement } from './enablement';
import type {
  FhirQuestionnaire,
  FhirQuestionnaireResponse,
  FhirQuestionnaireResponseItem,
  FhirReference,
} from './fhir-questionnaire';

/** The id the served Questionnaire takes inside the response when the service gave it none. */
const CONTAINED_ID = 'questionnaire';

/** The Questionnaire the service last served, as prefill and itemsOfQuestionnaire read it. */
export function servedQuestionnaire(state: AdaptiveQuestionnaireState): FhirQuestionnaire {
  return state.questionnaire as unknown as FhirQuestionnaire;
}

/**
 * The items of the Questionnaire the service now serves, in its order: an item the case already
 * holds keeps its answer (and who gave it), a new one comes as `served` has it (prefilled or not).
 * An item the service no longer serves goes, with its answer: the service asks what the answers call for.
 */
export function mergedItems(
  current: QuestionnaireItemState[],
  served: QuestionnaireItemState[],
): QuestionnaireItemState[] {
  const held = new Map(current.map((item) => [item.link_id, item]));
  return withEnablement(
    served.map((item) => {
      const kept = held.get(item.link_id);
      return kept ? { ...kept, parent_link_id: item.parent_link_id } : item;
    }),
  );
}

/**
 * The case's questionnaire with these items: `completed` only once the service said it asks nothing
 * more and every enabled required item is answered, `in_progress` otherwise (with `pending` empty
 * while the service has questions still to come).
 */
export function adaptiveQuestionnaire(
  questionnaire: CaseQuestionnaire,
  items: QuestionnaireItemState[],
  state: AdaptiveQuestionnaireState,
  failure: QuestionnaireFallbackReason | null,
): CaseQuestionnaire {
  const { pending } = questionnaireState(items);
  return {
    ...questionnaire,
    items,
    pending,
    status: state.completed && pending.length === 0 ? 'completed' : 'in_progress',
    prefill_failure: failure,
  };
}

/** Whether the service still has questions to ask: its last answer did not say `completed`. */
export function awaitsPayerQuestions(state: AdaptiveQuestionnaireState | undefined): boolean {
  return state !== undefined && !state.completed;
}

/** The items a round served that the case did not hold before it. */
export function newItems(
  before: QuestionnaireItemState[],
  after: QuestionnaireItemState[],
): QuestionnaireItemState[] {
  const held = new Set(before.map((item) => item.link_id));
  return after.filter((item) => !held.has(item.link_id));
}

/**
 * Whether a round's new items leave something for a person: an enabled item that takes an answer and
 * has none the payer's CQL gave. Until then the service is asked again without waiting for anyone.
 */
export function newItemsAwaitPerson(
  before: QuestionnaireItemState[],
  after: QuestionnaireItemState[],
): boolean {
  return newItems(before, after).some(
    (item) =>
      item.enabled &&
      !item.read_only &&
      (ANSWERABLE_ITEM_TYPES as readonly string[]).includes(item.type) &&
      item.origin !== 'auto',
  );
}

/**
 * Before the first round: the package's Questionnaire, in DTR's adaptive form, as the first
 * `$next-question` contains it. Every later round sends what the service served, unchanged, as SDC asks.
 */
export function firstRoundState(
  questionnaire: FhirQuestionnaire,
  canonical: string,
): AdaptiveQuestionnaireState {
  return {
    questionnaire: containedAdaptiveQuestionnaire(
      questionnaire,
      canonical,
    ) as unknown as AdaptiveQuestionnaireState['questionnaire'],
    completed: false,
  };
}

/**
 * What `$next-question` is sent (SDC): DTR's QuestionnaireResponse holding the Questionnaire as served
 * so far (contained, referenced `#id`) and the answers so far, each with its
 * DTR information-origin, naming the patient and, as DTR's `qr-context`, the order and the coverage.
 */
export function nextQuestionResponse(
  canonical: string,
  items: QuestionnaireItemState[],
  state: AdaptiveQuestionnaireState,
  about: { subject: FhirReference; context: FhirReference[] },
  authored: string,
): NextQuestionResponse {
  const served = servedQuestionnaire(state);
  const contained = { ...served, id: served.id ?? CONTAINED_ID };
  const { item, ...response } = questionnaireResponseOf(canonical, items, {
    ...about,
    authored,
    status: 'in-progress',
  });
  return {
    ...response,
    // Before the first round nothing is answered, and FHIR allows no empty array.
    ...(item.length > 0 ? { item } : {}),
    contained: [contained],
    questionnaire: `#${contained.id}`,
  };
}

/** What `$next-question` is sent: the Questionnaire contained, `item` absent while nothing is answered. */
export type NextQuestionResponse = Omit<FhirQuestionnaireResponse, 'item'> & {
  item?: FhirQuestionnaireResponseItem[];
  contained: FhirQuestionnaire[];
};

export const DTR_ADAPTIVE_QUESTIONNAIRE_PROFILE =
  'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaire-adapt';

/**
 * A Questionnaire as a response contains it while the questions are served (DTR's
 * `dtr-questionnaire-adapt`): no canonical of its own, derived from the package's (`derivedFrom`), with
 * a narrative. The package's Questionnaire names its canonical, and is contained so until the service
 * serves one; a Questionnaire without a canonical is the service's, contained as it was served.
 */
export function containedAdaptiveQuestionnaire(
  questionnaire: FhirQuestionnaire,
  canonical: string,
): FhirQuestionnaire {
  if (questionnaire.url === undefined) return questionnaire;
  const { url: _url, version: _version, ...rest } = questionnaire;
  return {
    ...rest,
    meta: { ...rest.meta, profile: [DTR_ADAPTIVE_QUESTIONNAIRE_PROFILE] },
    text: rest.text ?? {
      status: 'generated',
      div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapedXml(rest.title ?? canonical)}</p></div>`,
    },
    derivedFrom: [canonical],
  };
}

const escapedXml = (text: string): string =>
  text.replace(/[&<>"]/g, (character) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[character]};`);
