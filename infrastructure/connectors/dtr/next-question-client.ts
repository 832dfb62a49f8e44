import type {
  AdaptiveQuestionnaireState,
  QuestionnaireFallbackReason,
} from '../../../domain/dtr/questionnaire';
import type { NextQuestionResponse } from '../../../domain/dtr/adaptive-questionnaire';
import { InvalidQuestionnairePackageError, readQuestionnaire } from '../../dtr/questionnaire-package';
import type { WebhookTargetPolicy } from '../../webhooks/target-policy';
import { postToDtrService } from './dtr-client';
import type { DtrEndpoint } from './dtr-client';

/** A `$next-question` answer as the case keeps it, or why there is none. */
export type ServedQuestions =
  | { kind: 'served'; adaptive: AdaptiveQuestionnaireState }
  | { kind: 'failed'; reason: QuestionnaireFallbackReason };

/**
 * The answer holds the Questionnaire so far and the answers sent back: no libraries, unlike a package,
 * though a Questionnaire may carry expanded value sets. The served Questionnaire rides in every round's
 * activity input and result, which Temporal refuses past 2 MB, beside the case's items.
 */
const MAX_ANSWER_BYTES = 1024 * 1024;

type Json = Record<string, unknown>;

/**
 * Asks a payer's DTR service for an adaptive questionnaire's next questions: `POST
 * [base]/Questionnaire/$next-question` (SDC, as Da Vinci DTR 2.0.1 uses it) with a Parameters whose
 * `questionnaire-response` is the QuestionnaireResponse so far, its Questionnaire contained. The service
 * answers the QuestionnaireResponse (alone, or as the Parameters' `return`), whose contained Questionnaire
 * holds the questions so far, status `completed` once it has no more. As for `$questionnaire-package`,
 * failures never fail the case: a refused, broken or unsuccessful call is `dtr_unavailable`, one past
 * the time limit `dtr_timed_out`, an answer past 1 MB `dtr_answer_too_large`, an answer that holds no
 * readable Questionnaire `dtr_invalid_package`.
 */
export async function askNextQuestion(
  endpoint: DtrEndpoint,
  response: NextQuestionResponse,
  policy: WebhookTargetPolicy,
): Promise<ServedQuestions> {
  const answer = await postToDtrService(
    endpoint,
    '$next-question',
    { resourceType: 'Parameters', parameter: [{ name: 'questionnaire-response', resource: response }] },
    policy,
    MAX_ANSWER_BYTES,
  );
  if ('failed' in answer) return failed(answer.failed);
  try {
    return { kind: 'served', adaptive: readNextQuestion(JSON.parse(answer.body)) };
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof InvalidQuestionnairePackageError)
      return failed('dtr_invalid_package');
    throw error;
  }
}

/**
 * The Questionnaire so far and whether the service is done, from a `$next-question` answer: a
 * QuestionnaireResponse, or a Parameters holding it as `return`. The Questionnaire is the contained
 * one the response's `questionnaire` names (`#id`), else its only contained Questionnaire.
 */
export function readNextQuestion(json: unknown): AdaptiveQuestionnaireState {
  const response = returnedResponse(json);
  const contained = (Array.isArray(response.contained) ? response.contained : []).filter(
    (resource): resource is Json => isObject(resource) && resource.resourceType === 'Questionnaire',
  );
  const reference = typeof response.questionnaire === 'string' ? response.questionnaire : '';
  const named = reference.startsWith('#')
    ? contained.find((resource) => resource.id === reference.slice(1))
    : undefined;
  const questionnaire = named ?? (contained.length === 1 ? contained[0] : undefined);
  if (!questionnaire)
    throw new InvalidQuestionnairePackageError(
      `The $next-question answer contains ${contained.length} Questionnaires and names none of them.`,
    );
  readQuestionnaire(questionnaire);
  return {
    questionnaire: questionnaire as AdaptiveQuestionnaireState['questionnaire'],
    completed: response.status === 'completed',
  };
}

function returnedResponse(json: unknown): Json {
  if (isObject(json) && json.resourceType === 'QuestionnaireResponse') return json;
  if (isObject(json) && json.resourceType === 'Parameters' && Array.isArray(json.parameter)) {
    const returned = (json.parameter as unknown[]).find(
      (parameter) => isObject(parameter) && parameter.name === 'return',
    ) as Json | undefined;
    if (isObject(returned?.resource) && returned.resource.resourceType === 'QuestionnaireResponse')
      return returned.resource;
  }
  throw new InvalidQuestionnairePackageError(
    'The $next-question answer is neither a QuestionnaireResponse nor Parameters returning one.',
  );
}

function failed(reason: QuestionnaireFallbackReason): ServedQuestions {
  return { kind: 'failed', reason };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
