/**
 * The questionnaire's items as a prior authorization keeps them (questionnaire.ts): read once from the
 * payer's FHIR Questionnaire, then checked, answered and turned into DTR's QuestionnaireResponse.
 * Pure and deterministic (no I/O, no clock), because the workflow runs every function but the first.
 */
import type {
  AnswerOrigin,
  AnswerValue,
  AttachmentAnswer,
  CaseQuestionnaire,
  CodedAnswer,
  EnableWhenCondition,
  QuantityAnswer,
  QuestionnaireAnswerInput,
  QuestionnaireAnswers,
  QuestionnaireItemState,
  QuestionnaireItemType,
} from './questionnaire';
import { ANSWERABLE_ITEM_TYPES, UNNAMED_AUTHOR } from './questionnaire';

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

/** The few FHIR R4 shapes these functions read and write; every other element passes unread. */
export interface FhirCoding {
  system?: string;
  version?: string;
  code?: string;
  display?: string;
}

export interface FhirReference {
  reference?: string;
  type?: string;
  display?: string;
}

export interface FhirExtension {
  url: string;
  [value: string]: unknown;
}

export interface FhirEnableWhen {
  question: string;
  operator: EnableWhenCondition['operator'];
  answerBoolean?: boolean;
  answerDecimal?: number;
  answerInteger?: number;
  answerDate?: string;
  answerDateTime?: string;
  answerTime?: string;
  answerString?: string;
  answerCoding?: FhirCoding;
  answerQuantity?: { value?: number; unit?: string; code?: string };
}

export interface FhirAnswerOption {
  valueCoding?: FhirCoding;
  valueString?: string;
  valueInteger?: number;
  valueDate?: string;
  valueTime?: string;
}

export interface FhirQuestionnaireItem {
  linkId: string;
  text?: string;
  type: string;
  required?: boolean;
  repeats?: boolean;
  readOnly?: boolean;
  answerOption?: FhirAnswerOption[];
  answerValueSet?: string;
  enableWhen?: FhirEnableWhen[];
  enableBehavior?: 'all' | 'any';
  extension?: FhirExtension[];
  item?: FhirQuestionnaireItem[];
}

export interface FhirValueSetConcept {
  system?: string;
  version?: string;
  code?: string;
  display?: string;
  contains?: FhirValueSetConcept[];
}

export interface FhirValueSet {
  resourceType: 'ValueSet';
  id?: string;
  url?: string;
  version?: string;
  expansion?: { contains?: FhirValueSetConcept[] };
  compose?: {
    include?: { system?: string; version?: string; concept?: { code: string; display?: string }[] }[];
  };
}

export interface FhirQuestionnaire {
  resourceType: 'Questionnaire';
  id?: string;
  url?: string;
  version?: string;
  title?: string;
  meta?: { profile?: string[] };
  extension?: FhirExtension[];
  contained?: { resourceType: string; [element: string]: unknown }[];
  item?: FhirQuestionnaireItem[];
}

export interface FhirQuestionnaireResponseAnswer {
  [value: string]: unknown;
  extension: FhirExtension[];
  item?: FhirQuestionnaireResponseItem[];
}

export interface FhirQuestionnaireResponseItem {
  linkId: string;
  text?: string;
  answer?: FhirQuestionnaireResponseAnswer[];
  item?: FhirQuestionnaireResponseItem[];
}

export interface FhirQuestionnaireResponse {
  resourceType: 'QuestionnaireResponse';
  meta: { profile: string[] };
  extension: FhirExtension[];
  questionnaire: string;
  status: 'in-progress' | 'completed';
  subject: FhirReference;
  authored: string;
  author?: FhirReference;
  item: FhirQuestionnaireResponseItem[];
}

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

/** An enableWhenExpression that was false at prefill: an empty `any`, which never holds, as FHIR reads it. */
export const NEVER_ENABLED: Pick<QuestionnaireItemState, 'enable_when' | 'enable_behavior'> = {
  enable_when: [],
  enable_behavior: 'any',
};

/**
 * Recomputes `enabled`: an item shows when its own conditions hold and its parent shows. A question
 * hidden (or answered only by a proposal) counts as unanswered in others' conditions, as FHIR says of
 * disabled items. Conditions may point at later items, so it repeats until nothing changes.
 */
export function withEnablement(items: QuestionnaireItemState[]): QuestionnaireItemState[] {
  let current = items;
  for (let pass = 0; pass <= items.length; pass++) {
    const byLinkId = new Map(current.map((item) => [item.link_id, item]));
    const next: QuestionnaireItemState[] = [];
    const enabledNow = new Map<string, boolean>();
    for (const item of current) {
      const parentEnabled =
        item.parent_link_id === null ? true : (enabledNow.get(item.parent_link_id) ?? true);
      const enabled = parentEnabled && conditionsHold(item, byLinkId);
      enabledNow.set(item.link_id, enabled);
      next.push(enabled === item.enabled ? item : { ...item, enabled });
    }
    if (next.every((item, index) => item === current[index])) return next;
    current = next;
  }
  return current;
}

function conditionsHold(
  item: QuestionnaireItemState,
  byLinkId: Map<string, QuestionnaireItemState>,
): boolean {
  if (item.enable_when === null) return true;
  const results = item.enable_when.map((condition) =>
    conditionHolds(condition, byLinkId.get(condition.question)),
  );
  return item.enable_behavior === 'any' ? results.some(Boolean) : results.every(Boolean);
}

function conditionHolds(
  condition: EnableWhenCondition,
  question: QuestionnaireItemState | undefined,
): boolean {
  const answers = question && question.enabled ? confirmedAnswers(question) : [];
  if (condition.operator === 'exists') return answers.length > 0 === (condition.answer === true);
  // FHIR: `!=` holds when no answer equals the value, so also while the question is unanswered.
  if (condition.operator === '!=') return !answers.some((answer) => sameValue(answer, condition.answer));
  return answers.some((answer) => compares(answer, condition.operator, condition.answer));
}

function compares(
  answer: AnswerValue,
  operator: EnableWhenCondition['operator'],
  expected: AnswerValue,
): boolean {
  if (operator === '=') return sameValue(answer, expected);
  const left = orderable(answer);
  const right = orderable(expected);
  if (left === null || right === null || typeof left !== typeof right) return false;
  switch (operator) {
    case '>':
      return left > right;
    case '<':
      return left < right;
    case '>=':
      return left >= right;
    case '<=':
      return left <= right;
  }
  return false;
}

function orderable(value: AnswerValue): number | string | null {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'object' && 'value' in value) return value.value;
  return null;
}

/** An item's answers a payer may see: none while unanswered or only proposed. */
function confirmedAnswers(item: QuestionnaireItemState): AnswerValue[] {
  if (item.answer === null || item.origin === 'proposed') return [];
  return Array.isArray(item.answer) ? item.answer : [item.answer];
}

function takesAnswers(item: QuestionnaireItemState): boolean {
  return (ANSWERABLE_ITEM_TYPES as readonly string[]).includes(item.type) && !item.read_only;
}

/** The enabled required items a person could answer and nobody has (a proposal is not an answer yet). */
export function pendingLinkIds(items: QuestionnaireItemState[]): string[] {
  return items
    .filter((item) => item.enabled && item.required && takesAnswers(item))
    .filter((item) => confirmedAnswers(item).length === 0)
    .map((item) => item.link_id);
}

/**
 * What is wrong with a batch of answers, each naming its item: unknown or unanswerable items, hidden
 * ones (after the batch's own answers are applied, so a choice and the question it reveals can come
 * together), values of the wrong type, lists for items that do not repeat, and repeated link_ids.
 */
export function answerIssues(
  items: QuestionnaireItemState[],
  answers: QuestionnaireAnswerInput[],
): { link_id: string; message: string }[] {
  const byLinkId = new Map(items.map((item) => [item.link_id, item]));
  const issues: { link_id: string; message: string }[] = [];
  const seen = new Set<string>();
  const wellFormed: QuestionnaireAnswerInput[] = [];
  for (const answer of answers) {
    const linkId = answer.link_id;
    if (seen.has(linkId)) {
      issues.push({ link_id: linkId, message: `${linkId} is answered more than once in this request.` });
      continue;
    }
    seen.add(linkId);
    const item = byLinkId.get(linkId);
    const problem = item
      ? structuralIssue(item, answer.value)
      : `No item of the questionnaire has link_id ${linkId}.`;
    if (problem) issues.push({ link_id: linkId, message: problem });
    else wellFormed.push(answer);
  }
  const after = new Map(withAnswers(items, wellFormed, '').map((item) => [item.link_id, item]));
  for (const answer of wellFormed) {
    // Clearing a hidden item's answer is harmless, and is how a stale answer behind a change goes.
    if (answer.value !== null && !after.get(answer.link_id)?.enabled)
      issues.push({
        link_id: answer.link_id,
        message: `${answer.link_id} is not shown (its enableWhen conditions do not hold), so it takes no answer.`,
      });
  }
  return issues;
}

function structuralIssue(item: QuestionnaireItemState, value: unknown): string | null {
  const linkId = item.link_id;
  if (item.type === 'group' || item.type === 'display')
    return `${linkId} is a ${item.type} item and takes no answer.`;
  if (item.read_only) return `${linkId} is read-only and takes no answer.`;
  if (value === null) return null;
  if (Array.isArray(value)) {
    if (!item.repeats) return `${linkId} does not repeat: give one value, not a list.`;
    if (value.length === 0) return `${linkId} got an empty list: give null to clear the answer.`;
    if (value.length > MAX_REPEATED_ANSWERS)
      return `${linkId} takes at most ${MAX_REPEATED_ANSWERS} answers; it got ${value.length}.`;
    for (const entry of value) {
      const problem = valueIssue(item, entry);
      if (problem) return problem;
    }
    return null;
  }
  return valueIssue(item, value);
}

/**
 * Bounds on what a person may write, so a case stays within what Temporal keeps in one workflow: a
 * string item's answer, a text item's, and a repeating item's answers.
 */
export const MAX_STRING_ANSWER = 1_000;
export const MAX_TEXT_ANSWER = 10_000;
const MAX_REPEATED_ANSWERS = 50;
/** FHIR's integer is 32-bit. */
const MAX_INTEGER = 2_147_483_647;

const EXPECTED: Record<Exclude<QuestionnaireItemType, 'group' | 'display'>, string> = {
  boolean: 'true or false',
  integer: 'a whole number (32-bit)',
  decimal: 'a number',
  date: 'a date as YYYY-MM-DD',
  dateTime: 'a date (YYYY-MM-DD) or a date and time with its offset (2024-04-07T18:32:03Z)',
  time: 'a time as hh:mm:ss',
  string: `a non-empty string of at most ${MAX_STRING_ANSWER} characters`,
  text: `a non-empty string of at most ${MAX_TEXT_ANSWER} characters`,
  url: `an absolute URL (https://…) of at most ${MAX_STRING_ANSWER} characters`,
  choice: 'one of its options, as a coding ({ "code": … })',
  'open-choice': `one of its options as a coding, or free text of at most ${MAX_STRING_ANSWER} characters`,
  quantity: 'a quantity ({ "value": number, "unit": string or null })',
  attachment: 'an attachment ({ "url": string, "content_type" and "title" strings or null })',
};

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_TIME =
  /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]((0\d|1[0-3]):[0-5]\d|14:00)))?)?)?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\/\S+$|^urn:\S+$/i;

/** Why one value does not fit the item's type, or null when it does. */
export function valueIssue(item: QuestionnaireItemState, value: unknown): string | null {
  if (item.type === 'group' || item.type === 'display') return `${item.link_id} takes no answer.`;
  return fits(item, value) ? null : `${item.link_id} (${item.type}) takes ${EXPECTED[item.type]}.`;
}

function fits(item: QuestionnaireItemState, value: unknown): boolean {
  switch (item.type) {
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value) && Math.abs(value as number) <= MAX_INTEGER;
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value);
    case 'date':
      return typeof value === 'string' && DATE.test(value) && realDate(value);
    case 'dateTime':
      return (
        typeof value === 'string' &&
        DATE_TIME.test(value) &&
        (value.length < 10 || realDate(value.slice(0, 10)))
      );
    case 'time':
      return typeof value === 'string' && TIME.test(value);
    case 'string':
      return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_STRING_ANSWER;
    case 'text':
      return typeof value === 'string' && value.trim() !== '' && value.length <= MAX_TEXT_ANSWER;
    case 'url':
      return typeof value === 'string' && URL_LIKE.test(value) && value.length <= MAX_STRING_ANSWER;
    case 'choice':
      return isCoded(value) && matchingOption(item, value) !== undefined;
    case 'open-choice':
      return (
        (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_STRING_ANSWER) ||
        (isCoded(value) && matchingOption(item, value) !== undefined)
      );
    case 'quantity':
      return isQuantity(value);
    case 'attachment':
      return isAttachment(value);
    default:
      return false;
  }
}

function realDate(value: string): boolean {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const daysInMonth = [
    31,
    year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28,
    31,
    30,
    31,
    30,
    31,
    31,
    30,
    31,
    30,
    31,
  ];
  return day <= daysInMonth[month - 1]!;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalText(value: unknown): boolean {
  return value === undefined || value === null || typeof value === 'string';
}

function isCoded(value: unknown): value is CodedAnswer {
  return (
    isRecord(value) &&
    typeof value.code === 'string' &&
    value.code !== '' &&
    optionalText(value.system) &&
    optionalText(value.display)
  );
}

function isQuantity(value: unknown): value is QuantityAnswer {
  return (
    isRecord(value) &&
    typeof value.value === 'number' &&
    Number.isFinite(value.value) &&
    optionalText(value.unit)
  );
}

function isAttachment(value: unknown): value is AttachmentAnswer {
  return (
    isRecord(value) &&
    typeof value.url === 'string' &&
    value.url !== '' &&
    optionalText(value.content_type) &&
    optionalText(value.title)
  );
}

/**
 * The option a coding names, by code (and system when the coding gives one). An item whose options
 * the package did not carry (an unexpanded value set, or none) takes any coding.
 */
export function matchingOption(item: QuestionnaireItemState, coding: CodedAnswer): CodedAnswer | undefined {
  if (item.options === null) return coding;
  return item.options.find(
    (option) =>
      option.code === coding.code && (!coding.system || !option.system || option.system === coding.system),
  );
}

/**
 * Records a person's answers (already checked by answerIssues): `manual` where nothing or only a
 * proposal stood, `override` where it replaces the payer's CQL answer with another value (the same
 * value stays `auto`), and null clears. Codings take the option's system and display.
 */
export function withAnswers(
  items: QuestionnaireItemState[],
  answers: QuestionnaireAnswerInput[],
  author: string,
): QuestionnaireItemState[] {
  const byLinkId = new Map(answers.map((answer) => [answer.link_id, answer.value]));
  const answered = items.map((item): QuestionnaireItemState => {
    if (!byLinkId.has(item.link_id)) return item;
    const value = byLinkId.get(item.link_id) ?? null;
    if (value === null) return { ...item, answer: null, origin: null, source: null, author: null };
    const normalized = normalizedAnswer(item, value);
    if (item.origin === 'auto' && sameAnswer(item.answer, normalized)) return item;
    const origin: AnswerOrigin = item.origin === 'auto' || item.origin === 'override' ? 'override' : 'manual';
    return { ...item, answer: normalized, origin, source: { kind: 'person', reference: author }, author };
  });
  return withEnablement(answered);
}

/** Items with what they still wait for: the pending link_ids, and `completed` once there are none. */
export function questionnaireState(
  items: QuestionnaireItemState[],
): Pick<CaseQuestionnaire, 'items' | 'pending' | 'status'> {
  const pending = pendingLinkIds(items);
  return { items, pending, status: pending.length === 0 ? 'completed' : 'in_progress' };
}

/** The case's questionnaire with these answers recorded (already checked by answerIssues). */
export function answeredQuestionnaire(
  questionnaire: CaseQuestionnaire,
  answers: QuestionnaireAnswers,
): CaseQuestionnaire {
  const items = withAnswers(questionnaire.items, answers.answers, answers.author ?? UNNAMED_AUTHOR);
  return { ...questionnaire, ...questionnaireState(items) };
}

/** A value as the item keeps it: a list for a repeating item, one value otherwise, codings completed. */
export function normalizedAnswer(
  item: QuestionnaireItemState,
  value: AnswerValue | AnswerValue[],
): AnswerValue | AnswerValue[] {
  const values = (Array.isArray(value) ? value : [value]).map((entry) => keptValue(item, entry));
  return item.repeats ? values : values[0]!;
}

/**
 * One value as its item's type keeps it, nothing more: a quantity's number and unit (a FHIR Quantity's
 * `code` and `system` too would read as a coding), an attachment's three fields, a choice's coding
 * completed from its option.
 */
function keptValue(item: QuestionnaireItemState, value: AnswerValue): AnswerValue {
  if (item.type === 'quantity' && isQuantity(value)) return { value: value.value, unit: value.unit ?? null };
  if (item.type === 'attachment' && isAttachment(value))
    return { content_type: value.content_type ?? null, url: value.url, title: value.title ?? null };
  if ((item.type === 'choice' || item.type === 'open-choice') && isCoded(value))
    return completeCoding(item, value);
  return value;
}

function completeCoding(item: QuestionnaireItemState, coding: CodedAnswer): CodedAnswer {
  const option = item.options === null ? undefined : matchingOption(item, coding);
  return option ?? { system: coding.system ?? null, code: coding.code, display: coding.display ?? null };
}

function sameAnswer(left: AnswerValue | AnswerValue[] | null, right: AnswerValue | AnswerValue[]): boolean {
  if (left === null) return false;
  const lefts = Array.isArray(left) ? left : [left];
  const rights = Array.isArray(right) ? right : [right];
  return lefts.length === rights.length && lefts.every((value, index) => sameValue(value, rights[index]!));
}

function sameValue(left: AnswerValue, right: AnswerValue): boolean {
  if (isQuantity(left) && isQuantity(right))
    return left.value === right.value && (left.unit ?? null) === (right.unit ?? null);
  if (isAttachment(left) && isAttachment(right)) return left.url === right.url;
  if (isCoded(left) && isCoded(right))
    return left.code === right.code && (!left.system || !right.system || left.system === right.system);
  return left === right;
}

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
