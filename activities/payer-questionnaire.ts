import { itemsOfQuestionnaire, questionnaireState } from '../domain/dtr/questionnaire-items';
import { questionnaireUnavailable } from '../domain/dtr/questionnaire';
import type {
  CaseQuestionnaire,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
  QuestionnaireFallbackReason,
  QuestionnaireItemState,
} from '../domain/dtr/questionnaire';
import type { CaseEvidenceItem } from '../domain/cases/case-model';
import type { ClinicalEvidence } from '../domain/clinical/clinical-model';
import { CLINICAL_EVALUATION_DEADLINE_PASSED, CLINICAL_EVALUATION_TIMED_OUT } from '../domain/failures';
import type { ClinicalEvaluator } from '../infrastructure/clinical/evaluation-pool';
import type { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { fetchQuestionnairePackage } from '../infrastructure/connectors/dtr/dtr-client';
import type { DtrEndpoint, FetchedQuestionnairePackage } from '../infrastructure/connectors/dtr/dtr-client';
import { questionnairePackage } from '../infrastructure/connectors/dtr/simulated-dtr-service';
import {
  InvalidQuestionnairePackageError,
  readQuestionnairePackage,
} from '../infrastructure/dtr/questionnaire-package';
import type { QuestionnairePackage } from '../infrastructure/dtr/questionnaire-package';
import type { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { attemptDeadline } from './attempt-deadline';

export interface PayerQuestionnaireDependencies {
  /** Runs the payer's CQL off the event loop, cut at the pool's time limit. */
  evaluator: ClinicalEvaluator;
  /** The case's evidence as the criteria read it: file assets as their pages' text (activities/evidence-reading.ts). */
  readEvidence: (items: readonly CaseEvidenceItem[]) => Promise<{ evidence: ClinicalEvidence[] }>;
  /** The account's `questionnaire` connector (`liveDtrServices`); undefined when it has none. */
  liveDtrService: (accountId: string) => Promise<DtrEndpoint | undefined>;
  /** Checks the DTR service's address at every connection, as for every connector. */
  policy: WebhookTargetPolicy;
}

/**
 * The account's `questionnaire` connector as a DTR service, read at the moment of use so a change of
 * settings takes effect on the next call. Its time limit never outlasts the activity's attempt, so the
 * call ends before Temporal gives up on it.
 */
export function liveDtrServices(
  settings: Pick<ConnectorSettingsRepository, 'readForUse'>,
): (accountId: string) => Promise<DtrEndpoint | undefined> {
  return async (accountId) => {
    const connector = await settings.readForUse(accountId, 'questionnaire');
    if (connector?.kind !== 'questionnaire') return undefined;
    const timeoutMs = Math.max(1, Math.min(connector.timeoutMs, attemptDeadline() - Date.now()));
    return { url: connector.url, auth: connector.auth, timeoutMs };
  };
}

/**
 * Where a prior authorization gets and prefills the questionnaire its payer's CRD answer named
 * (docs/dtr.md). Test mode: the sandbox payer's DTR service, whose packages are generated from the
 * catalog's criteria. Live mode: the account's DTR service over HTTP (docs/connectors.md); an account
 * without the connector is not asked, and the case goes to review on the CRD answer and the catalog's
 * criteria. Either package is prefilled alike.
 *
 * Never fails the case: a package that cannot be had or read, or CQL cut at its time limit, comes back
 * as a questionnaire with `prefill_failure`, its items (when the package was read) waiting for a person.
 */
export function payerQuestionnaires({
  evaluator,
  readEvidence,
  liveDtrService,
  policy,
}: PayerQuestionnaireDependencies): (query: PayerQuestionnaireQuery) => Promise<PayerQuestionnaireAnswer> {
  const prefill = async (query: PayerQuestionnaireQuery, served: FetchedQuestionnairePackage) =>
    prefillPackage(evaluator, query, served, (await readEvidence(query.request.evidence)).evidence);
  return async (query) => {
    if (query.mode === 'test') return prefill(query, sandboxPackage(query.canonical));
    const service = await liveDtrService(query.accountId);
    if (!service) return { kind: 'not_asked' };
    return prefill(query, await fetchQuestionnairePackage(service, query.canonical, policy));
  };
}

/** The sandbox DTR service's answer, as the HTTP client gives a live one: an unknown canonical is unavailable. */
function sandboxPackage(canonical: string): FetchedQuestionnairePackage {
  const served = questionnairePackage(canonical);
  if (served.kind === 'not_found') return { kind: 'failed', reason: 'dtr_unavailable' };
  return { kind: 'fetched', parameters: served.parameters };
}

/** Reads the payer's package and runs its CQL over the case's record, or says why it could not. */
async function prefillPackage(
  evaluator: ClinicalEvaluator,
  query: PayerQuestionnaireQuery,
  served: FetchedQuestionnairePackage,
  evidence: ClinicalEvidence[],
): Promise<PayerQuestionnaireAnswer> {
  if (served.kind === 'failed') return prefilled(unprefilled(query.canonical, null, served.reason));
  let pkg: QuestionnairePackage;
  try {
    pkg = readQuestionnairePackage(served.parameters);
  } catch (error) {
    if (error instanceof InvalidQuestionnairePackageError)
      return prefilled(unprefilled(query.canonical, null, 'dtr_invalid_package'));
    throw error;
  }
  if (pkg.adaptive) return prefilled(unprefilled(pkg.canonical, pkg, 'dtr_adaptive_not_supported'));
  try {
    const { items } = await evaluator.run(
      {
        kind: 'dtr_prefill' as const,
        package: pkg,
        patientRecord: { caseId: query.caseId, request: query.request, evidence },
        now: new Date().toISOString(),
      },
      { deadline: attemptDeadline() },
    );
    return prefilled(questionnaireOf(pkg, items, null));
  } catch (error) {
    // Past the attempt's deadline the next attempt may find the pool free: Temporal retries it.
    if (isRetryable(error)) throw error;
    // Read but not prefilled: the items still wait for a person, whatever stopped the CQL.
    return prefilled(
      unprefilled(pkg.canonical, pkg, isTimeLimit(error) ? 'dtr_timed_out' : 'dtr_unavailable'),
    );
  }
}

function prefilled(questionnaire: CaseQuestionnaire): PayerQuestionnaireAnswer {
  return { kind: 'prefilled', questionnaire };
}

function questionnaireOf(
  pkg: QuestionnairePackage,
  items: QuestionnaireItemState[],
  failure: QuestionnaireFallbackReason | null,
): CaseQuestionnaire {
  return {
    canonical: pkg.canonical,
    title: pkg.title,
    ...questionnaireState(items),
    prefill_failure: failure,
  };
}

/** The questionnaire when the payer's CQL answered nothing: its items, unanswered, or none when unread. */
function unprefilled(
  canonical: string,
  pkg: QuestionnairePackage | null,
  reason: QuestionnaireFallbackReason,
): CaseQuestionnaire {
  if (pkg) return questionnaireOf(pkg, itemsOfQuestionnaire(pkg.questionnaire, pkg.valueSets), reason);
  return questionnaireUnavailable(canonical, reason);
}

function isTimeLimit(error: unknown): boolean {
  return (error as { type?: string } | null)?.type === CLINICAL_EVALUATION_TIMED_OUT;
}

function isRetryable(error: unknown): boolean {
  return (error as { type?: string } | null)?.type === CLINICAL_EVALUATION_DEADLINE_PASSED;
}
