/**
 * A payer's questionnaire as a prior authorization keeps it: Da Vinci Documentation Templates and
 * Rules (DTR STU 2) items, flattened in the Questionnaire's order, each with its answer and where the
 * answer came from (docs/dtr.md, docs/decisions.md#payer-questionnaire). Plain data, so the workflow can check and record
 * answers deterministically; the FHIR Questionnaire is read once, when the package is prefilled.
 */
import type { PriorAuthorizationRequest } from '../cases/prior-authorization-request';

/**
 * DTR's `information-origin`, and `proposed`: the evidence reader's suggestion, which is never sent
 * until a person confirms it (it then goes as `manual`, authored by that person).
 */
export const ANSWER_ORIGINS = ['auto', 'override', 'manual', 'proposed'] as const;
export type AnswerOrigin = (typeof ANSWER_ORIGINS)[number];

/** The Questionnaire item types the service renders, checks and answers. */
export const ANSWERABLE_ITEM_TYPES = [
  'boolean',
  'choice',
  'open-choice',
  'decimal',
  'integer',
  'date',
  'dateTime',
  'time',
  'string',
  'text',
  'url',
  'quantity',
  'attachment',
] as const;
export type AnswerableItemType = (typeof ANSWERABLE_ITEM_TYPES)[number];
/** Groups hold items; display items show text. Neither takes an answer. */
export type QuestionnaireItemType = AnswerableItemType | 'group' | 'display';

/** A coded answer (choice, open-choice) as FHIR's Coding. */
export interface CodedAnswer {
  system: string | null;
  code: string;
  display: string | null;
}

/** A quantity answer. */
export interface QuantityAnswer {
  value: number;
  unit: string | null;
}

/** An attachment answer: a document of the case, by id, or a link. */
export interface AttachmentAnswer {
  content_type: string | null;
  url: string | null;
  title: string | null;
}

/**
 * One answer value, as the item's type reads it: boolean; integer and decimal as numbers; date,
 * dateTime, time, string, text and url as strings; choice as a coding (open-choice as a coding or
 * free text); quantity; attachment.
 */
export type AnswerValue = boolean | number | string | CodedAnswer | QuantityAnswer | AttachmentAnswer;

/** A simple `enableWhen` condition, as FHIR writes it (the answer as the question's item reads it). */
export interface EnableWhenCondition {
  question: string;
  operator: 'exists' | '=' | '!=' | '>' | '<' | '>=' | '<=';
  answer: AnswerValue;
}

/** Where an answer came from beyond its origin: the CQL expression, or the evidence it was read in. */
export interface AnswerSource {
  /** `cql` (the payer's expression), `evidence` (our reader's proposal), `person` (typed or confirmed). */
  kind: 'cql' | 'evidence' | 'person';
  /** The expression (`"Library".Define`), the evidence's citation, or the person's display name. */
  reference: string;
}

export interface QuestionnaireItemState {
  link_id: string;
  /** The group the item sits in (its parent's link_id), null at the top level. */
  parent_link_id: string | null;
  text: string | null;
  type: QuestionnaireItemType;
  required: boolean;
  repeats: boolean;
  read_only: boolean;
  /** The choices of a choice or open-choice item, from answerOption or the package's expanded value set. */
  options: CodedAnswer[] | null;
  enable_when: EnableWhenCondition[] | null;
  enable_behavior: 'all' | 'any' | null;
  /** Whether the item shows: its enableWhen holds (or its enableWhenExpression held at prefill). */
  enabled: boolean;
  /** The answer: one value, a list for a repeating item, or null while unanswered. */
  answer: AnswerValue | AnswerValue[] | null;
  origin: AnswerOrigin | null;
  source: AnswerSource | null;
  /** Who gave or changed the answer (origin `manual` or `override`): the person's id on the account. */
  author: string | null;
}

/**
 * Why a case's questionnaire was not prefilled by the payer's CQL; the case goes to review anyway.
 * `dtr_` names a failure of the payer's DTR service (its package, or an adaptive questionnaire's
 * `$next-question` round), `cql_` one of the package's CQL run over the record.
 */
export const QUESTIONNAIRE_FALLBACK_REASONS = [
  'dtr_unavailable',
  'dtr_timed_out',
  'dtr_invalid_package',
  /** The service's answer was past what the case reads of it (1 MB for `$next-question`, 16 MB for a package). */
  'dtr_answer_too_large',
  /** Kept for cases prepared before adaptive questionnaires were asked through `$next-question`. */
  'dtr_adaptive_not_supported',
  /** The package's CQL was cut at the evaluation pool's time limit, or could not start in the time left. */
  'cql_timed_out',
  /** The package's CQL failed otherwise. */
  'cql_failed',
] as const;
export type QuestionnaireFallbackReason = (typeof QUESTIONNAIRE_FALLBACK_REASONS)[number];

export interface CaseQuestionnaire {
  /** The Questionnaire's canonical, `url|version`. */
  canonical: string;
  title: string | null;
  status: 'in_progress' | 'completed';
  items: QuestionnaireItemState[];
  /** The link_ids of the enabled required items still unanswered: what the case waits for. */
  pending: string[];
  /**
   * Why the payer's CQL answered nothing (the items then wait for a person): its DTR service's failure
   * (`dtr_`) or its CQL's (`cql_`); null when both ran.
   */
  prefill_failure: QuestionnaireFallbackReason | null;
  /**
   * Whether the payer's DTR service serves this questionnaire a few questions at a time (SDC
   * `$next-question`) and is asked for more after each answer: then `prefill_failure` names its last
   * round's failure, and `completed` waits for it to say it asks nothing more. Absent on cases
   * prepared before the field was added.
   */
  adaptive?: boolean;
}

/**
 * An SDC adaptive questionnaire between `$next-question` rounds (docs/dtr.md, "Adaptive
 * questionnaires"): the Questionnaire as the payer's DTR service last served it, which goes back to it
 * with the answers, and whether the service said it asks nothing more. The workflow keeps it beside
 * the case; the case shows it only through its items, `status` and `pending`.
 */
export interface AdaptiveQuestionnaireState {
  /** The Questionnaire so far, as served: FHIR JSON, which servedQuestionnaire reads. */
  questionnaire: { resourceType: 'Questionnaire'; [element: string]: unknown };
  /** The service set the QuestionnaireResponse's status `completed`: it has no more questions. */
  completed: boolean;
}

/** An answer given through the API or the console, by link_id. */
export interface QuestionnaireAnswerInput {
  link_id: string;
  /** A value as the item's type reads it, a list for a repeating item, or null to clear it. */
  value: AnswerValue | AnswerValue[] | null;
}

export interface QuestionnaireAnswers {
  answers: QuestionnaireAnswerInput[];
  /**
   * Who answered, as the QuestionnaireResponse names the author of `manual` and `override` answers;
   * `API client` when an integration leaves it out. Answering an item with its proposed value is how a
   * person confirms a proposal.
   */
  author?: string;
}

/** Who a QuestionnaireResponse names for answers an integration gave without naming anyone. */
export const UNNAMED_AUTHOR = 'API client';

/** What a prior authorization asks the payer's DTR service for: the questionnaire its CRD answer named. */
export interface PayerQuestionnaireQuery {
  caseId: string;
  accountId: string;
  mode: 'test' | 'live';
  /** The canonical CRD named, `url` or `url|version`. */
  canonical: string;
  request: PriorAuthorizationRequest;
}

/**
 * The questionnaire prefilled, or with the reason the payer's CQL answered nothing (`prefill_failure`,
 * the items then waiting for a person); `not_asked` where no DTR service is set up for the case.
 */
export type PayerQuestionnaireAnswer =
  | {
      kind: 'prefilled';
      questionnaire: CaseQuestionnaire;
      adaptive?: AdaptiveQuestionnaireState;
      /** An adaptive questionnaire's rounds ended on one its service failed (see NextQuestionsAnswer). */
      last_round_failed?: true;
    }
  | { kind: 'not_asked' };

/** What the DTR service of an adaptive questionnaire is asked after people answered: its next questions. */
export interface NextQuestionsQuery extends PayerQuestionnaireQuery {
  /** The questionnaire's items with the answers so far. */
  items: QuestionnaireItemState[];
  adaptive: AdaptiveQuestionnaireState;
}

/**
 * The items of the Questionnaire the service now serves (the new ones prefilled by the payer's CQL
 * where they have an expression; the others as the query gave them), or why the round failed.
 */
export type NextQuestionsAnswer =
  | {
      kind: 'served';
      items: QuestionnaireItemState[];
      adaptive: AdaptiveQuestionnaireState;
      /** Why the payer's CQL could not prefill the new items, or why the service failed the last round; null when both ran. */
      prefill_failure: QuestionnaireFallbackReason | null;
      /**
       * The rounds ended on one the service failed (its reason in `prefill_failure`) after earlier ones
       * served: the service still has questions to give, and is asked again as after a failed first
       * round. Absent otherwise, and in answers recorded before it was added.
       */
      last_round_failed?: true;
    }
  | { kind: 'failed'; reason: QuestionnaireFallbackReason };

/** A questionnaire the payer's service could not give: no items, the review going on the catalog's criteria. */
export function questionnaireUnavailable(
  canonical: string,
  reason: QuestionnaireFallbackReason = 'dtr_unavailable',
): CaseQuestionnaire {
  return { canonical, title: null, status: 'in_progress', items: [], pending: [], prefill_failure: reason };
}
