/**
 * The questionnaire's items as a prior authorization keeps them (questionnaire.ts), read once from the
 * payer's FHIR Questionnaire and the package's ValueSets. Pure and deterministic (no I/O, no clock).
 */
import type {
  AnswerValue,
  CodedAnswer,
  EnableWhenCondition,
  QuestionnaireItemState,
  QuestionnaireItemType,
} from './questionnaire';
import { withEnablement } from './enablement';
import type {
  FhirAnswerOption,
  FhirCoding,
  FhirEnableWhen,
  FhirQuestionnaire,
  FhirQuestionnaireItem,
  FhirValueSet,
  FhirValueSetConcept,
} from './fhir-questionnaire';

/** The ValueSets a questionnaire's `answerValueSet` may name: its contained ones and the package's. */
export function valueSetsOf(questionnaire: FhirQuestionnaire, valueSets: FhirValueSet[]): FhirValueSet[] {
  const contained = (questionnaire.contained ?? []).filter(
    (resource) => resource.resourceType === 'ValueSet',
  ) as unknown as FhirValueSet[];
  return [...contained, ...valueSets];
}

/**
 * The Questionnaire's items flattened in its order (groups too, each child naming its parent), with
 * their options and simple enableWhen, all unanswered. `answerValueSet` is looked up among the
 * Questionnaire's contained ValueSets (`#id`) and the package's (by canonical, `|version` ignored).
 */
export function itemsOfQuestionnaire(
  questionnaire: FhirQuestionnaire,
  valueSets: FhirValueSet[],
): QuestionnaireItemState[] {
  const known = valueSetsOf(questionnaire, valueSets);
  const items: QuestionnaireItemState[] = [];
  const visit = (fhirItems: FhirQuestionnaireItem[], parent: string | null): void => {
    for (const item of fhirItems) {
      items.push({
        link_id: item.linkId,
        parent_link_id: parent,
        text: item.text ?? null,
        type: item.type as QuestionnaireItemType,
        required: item.required === true,
        repeats: item.repeats === true,
        read_only: item.readOnly === true,
        options: optionsOf(item, known),
        enable_when: item.enableWhen?.length ? item.enableWhen.map(conditionOf) : null,
        enable_behavior: item.enableWhen?.length ? (item.enableBehavior ?? 'all') : null,
        enabled: true,
        answer: null,
        origin: null,
        source: null,
        author: null,
      });
      visit(item.item ?? [], item.linkId);
    }
  };
  visit(questionnaire.item ?? [], null);
  return withEnablement(items);
}

function optionsOf(item: FhirQuestionnaireItem, valueSets: FhirValueSet[]): CodedAnswer[] | null {
  if (item.type !== 'choice' && item.type !== 'open-choice') return null;
  if (item.answerOption?.length) return item.answerOption.flatMap(optionOf);
  if (!item.answerValueSet) return null;
  const valueSet = findValueSet(item.answerValueSet, valueSets);
  return valueSet ? codesOfValueSet(valueSet) : null;
}

function optionOf(option: FhirAnswerOption): CodedAnswer[] {
  if (option.valueCoding?.code) return [codedOf(option.valueCoding)];
  const plain = option.valueString ?? option.valueDate ?? option.valueTime ?? option.valueInteger;
  return plain === undefined ? [] : [{ system: null, code: String(plain), display: String(plain) }];
}

export function findValueSet(reference: string, valueSets: FhirValueSet[]): FhirValueSet | undefined {
  if (reference.startsWith('#')) {
    const byId = valueSets.find((valueSet) => valueSet.id === reference.slice(1));
    if (byId) return byId;
  }
  const [url, version] = reference.split('|');
  return valueSets.find(
    (valueSet) => valueSet.url === url && (version === undefined || valueSet.version === version),
  );
}

/** A ValueSet's codes: its expansion (nested `contains` flattened), else its enumerated `compose`. */
export function codesOfValueSet(valueSet: FhirValueSet): CodedAnswer[] {
  if (valueSet.expansion?.contains) {
    const codes: CodedAnswer[] = [];
    const visit = (concepts: FhirValueSetConcept[]): void => {
      for (const concept of concepts) {
        if (concept.code) codes.push(codedOf(concept));
        visit(concept.contains ?? []);
      }
    };
    visit(valueSet.expansion.contains);
    return codes;
  }
  return (valueSet.compose?.include ?? []).flatMap((include) =>
    (include.concept ?? []).map((concept) => ({
      system: include.system ?? null,
      code: concept.code,
      display: concept.display ?? null,
    })),
  );
}

function codedOf(coding: FhirCoding): CodedAnswer {
  return { system: coding.system ?? null, code: coding.code ?? '', display: coding.display ?? null };
}

function conditionOf(condition: FhirEnableWhen): EnableWhenCondition {
  return { question: condition.question, operator: condition.operator, answer: conditionAnswerOf(condition) };
}

function conditionAnswerOf(condition: FhirEnableWhen): AnswerValue {
  if (condition.answerCoding) return codedOf(condition.answerCoding);
  if (condition.answerQuantity)
    return {
      value: condition.answerQuantity.value ?? 0,
      unit: condition.answerQuantity.unit ?? condition.answerQuantity.code ?? null,
    };
  const plain =
    condition.answerBoolean ??
    condition.answerDecimal ??
    condition.answerInteger ??
    condition.answerDate ??
    condition.answerDateTime ??
    condition.answerTime ??
    condition.answerString;
  // An answerReference (or none) cannot be compared here: read as true, only `exists` can match it.
  return plain ?? true;
}
