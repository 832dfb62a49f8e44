/**
 * DTR's QuestionnaireResponse written from the questionnaire's items: what goes to the payer with PAS.
 * Pure and deterministic (no I/O, no clock: the caller gives `authored`).
 */
import type { AnswerValue, AttachmentAnswer, QuantityAnswer, QuestionnaireItemState } from './questionnaire';
import { isCoded } from './answer-values';
import { confirmedAnswers } from './enablement';
import type {
  FhirCoding,
  FhirExtension,
  FhirQuestionnaireResponse,
  FhirQuestionnaireResponseAnswer,
  FhirQuestionnaireResponseItem,
  FhirReference,
} from './fhir-questionnaire';

export const INFORMATION_ORIGIN_EXTENSION =
  'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/information-origin';
export const DTR_QUESTIONNAIRE_RESPONSE_PROFILE =
  'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/dtr-questionnaireresponse';
/** DTR's link from a QuestionnaireResponse to the order and coverage it documents (2..* in the profile). */
export const QR_CONTEXT_EXTENSION = 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/qr-context';
/** DTR's purpose of a QuestionnaireResponse (1..* in the profile), a code of CRD's DocReason value set. */
export const INTENDED_USE_EXTENSION = 'http://hl7.org/fhir/us/davinci-dtr/StructureDefinition/intendedUse';
/** CRD's `withpa`: every response this service writes goes with a prior authorization request. */
const WITH_PRIOR_AUTHORIZATION = {
  system: 'http://hl7.org/fhir/us/davinci-crd/CodeSystem/temp',
  code: 'withpa',
  display: 'Include in prior authorization',
};
export interface QuestionnaireResponseContext {
  subject: FhirReference;
  /**
   * What the response documents, as DTR's `qr-context`: the order and the coverage (the profile asks
   * for both), each a reference with its `type`.
   */
  context?: FhirReference[];
  authored: string;
  /** The QuestionnaireResponse's author. */
  author?: FhirReference;
  /** The FHIR reference of each person who answered, by the id items keep; their name otherwise. */
  authors?: Record<string, FhirReference>;
  status: 'in-progress' | 'completed';
}

/**
 * DTR's QuestionnaireResponse: shown items with answers, nested as the Questionnaire nests them,
 * each answer carrying its information-origin (and, for a person's, its author). Proposals are the
 * evidence reader's guesses and never leave the service, so they are left out like unanswered items.
 * It names what it documents (`qr-context`, from `context.context`) and its use, with a prior
 * authorization (`intendedUse` `withpa`), as DTR's profile requires.
 */
export function questionnaireResponseOf(
  canonical: string,
  items: QuestionnaireItemState[],
  context: QuestionnaireResponseContext,
): FhirQuestionnaireResponse {
  const children = new Map<string | null, QuestionnaireItemState[]>();
  for (const item of items) {
    const siblings = children.get(item.parent_link_id) ?? [];
    siblings.push(item);
    children.set(item.parent_link_id, siblings);
  }
  const build = (parent: string | null): FhirQuestionnaireResponseItem[] =>
    (children.get(parent) ?? []).flatMap((item): FhirQuestionnaireResponseItem[] => {
      if (!item.enabled) return [];
      const nested = build(item.link_id);
      const answers = confirmedAnswers(item).map((value) => responseAnswer(item, value, context));
      if (item.type === 'group' || item.type === 'display') {
        return nested.length > 0 ? [{ linkId: item.link_id, ...textOf(item), item: nested }] : [];
      }
      if (answers.length === 0) return [];
      // FHIR nests a question's own child items under its answer; the first answer holds them.
      if (nested.length > 0) answers[0]!.item = nested;
      return [{ linkId: item.link_id, ...textOf(item), answer: answers }];
    });
  return {
    resourceType: 'QuestionnaireResponse',
    meta: { profile: [DTR_QUESTIONNAIRE_RESPONSE_PROFILE] },
    extension: [
      ...(context.context ?? []).map((reference) => ({
        url: QR_CONTEXT_EXTENSION,
        valueReference: reference,
      })),
      { url: INTENDED_USE_EXTENSION, valueCodeableConcept: { coding: [WITH_PRIOR_AUTHORIZATION] } },
    ],
    questionnaire: canonical,
    status: context.status,
    subject: context.subject,
    authored: context.authored,
    ...(context.author ? { author: context.author } : {}),
    item: build(null),
  };
}

function textOf(item: QuestionnaireItemState): { text?: string } {
  return item.text === null ? {} : { text: item.text };
}

function responseAnswer(
  item: QuestionnaireItemState,
  value: AnswerValue,
  context: QuestionnaireResponseContext,
): FhirQuestionnaireResponseAnswer {
  const origin: FhirExtension[] = [{ url: 'source', valueCode: item.origin }];
  if ((item.origin === 'manual' || item.origin === 'override') && item.author !== null) {
    const practitioner = context.authors?.[item.author] ?? { display: item.source?.reference ?? item.author };
    origin.push({ url: 'author', extension: [{ url: 'practitioner', valueReference: practitioner }] });
  }
  return { ...fhirValue(item, value), extension: [{ url: INFORMATION_ORIGIN_EXTENSION, extension: origin }] };
}

function fhirValue(item: QuestionnaireItemState, value: AnswerValue): Record<string, unknown> {
  if ((item.type === 'choice' || item.type === 'open-choice') && isCoded(value)) {
    const coding: FhirCoding = { code: value.code };
    if (value.system) coding.system = value.system;
    if (value.display) coding.display = value.display;
    return { valueCoding: coding };
  }
  switch (item.type) {
    case 'boolean':
      return { valueBoolean: value };
    case 'integer':
      return { valueInteger: value };
    case 'decimal':
      return { valueDecimal: value };
    case 'date':
      return { valueDate: value };
    case 'dateTime':
      return { valueDateTime: value };
    case 'time':
      return { valueTime: value };
    case 'url':
      return { valueUri: value };
    case 'quantity': {
      const quantity = value as QuantityAnswer;
      return { valueQuantity: { value: quantity.value, ...(quantity.unit ? { unit: quantity.unit } : {}) } };
    }
    case 'attachment': {
      const attachment = value as AttachmentAnswer;
      return {
        valueAttachment: {
          ...(attachment.content_type ? { contentType: attachment.content_type } : {}),
          ...(attachment.url ? { url: attachment.url } : {}),
          ...(attachment.title ? { title: attachment.title } : {}),
        },
      };
    }
    default:
      return { valueString: value };
  }
}
