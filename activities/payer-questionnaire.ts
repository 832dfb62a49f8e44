import { itemsOfQuestionnaire, pendingLinkIds } from '../domain/dtr/questionnaire-items';
import { questionnaireUnavailable } from '../domain/dtr/questionnaire';
import type {
  CaseQuestionnaire,
  PayerQuestionnaireAnswer,
  PayerQuestionnaireQuery,
  QuestionnaireFallbackReason,
  QuestionnaireItemState,
} from '../domain/dtr/questionnaire';
import { CLINICAL_EVALUATION_TIMED_OUT } from '../domain/failures';
import type { ClinicalEvaluator } from '../infrastructure/clinical/evaluation-pool';
import { questionnairePackage } from '../infrastructure/connectors/dtr/simulated-dtr-service';
import { patientRecordBundle } from '../infrastructure/dtr/patient-record';
import {
  InvalidQuestionnairePackageError,
  readQuestionnairePackage,
} from '../infrastructure/dtr/questionnaire-package';
import type { QuestionnairePackage } from '../infrastructure/dtr/questionnaire-package';

export interface PayerQuestionnaireDependencies {
  /** Runs the payer's CQL off the event loop, cut at the pool's time limit. */
  evaluator: ClinicalEvaluator;
}

/**
 * Where a prior authorization gets and prefills the questionnaire its payer's CRD answer named
 * (docs/dtr.md). Test mode: the sandbox payer's DTR service, whose packages are generated from the
 * catalog's criteria. Live mode asks no DTR service yet (docs/dtr.md, "Live payers"): the case goes to
 * review on the CRD answer and the catalog's criteria, as before.
 *
 * Never fails the case: a package that cannot be had or read, or CQL cut at its time limit, comes back
 * as a questionnaire with `prefill_failure`, its items (when the package was read) waiting for a person.
 */
export function payerQuestionnaires({
  evaluator,
}: PayerQuestionnaireDependencies): (query: PayerQuestionnaireQuery) => Promise<PayerQuestionnaireAnswer> {
  return async (query) => {
    if (query.mode === 'live') return { kind: 'not_asked' };
    const served = questionnairePackage(query.canonical);
    if (served.kind === 'not_found') return prefilled(unprefilled(query.canonical, null, 'dtr_unavailable'));
    let pkg: QuestionnairePackage;
    try {
      pkg = readQuestionnairePackage(served.parameters);
    } catch (error) {
      if (error instanceof InvalidQuestionnairePackageError)
        return prefilled(unprefilled(query.canonical, null, 'dtr_invalid_package'));
      throw error;
    }
    const now = new Date();
    const record = patientRecordBundle(query.request, null, { caseId: query.caseId, now });
    try {
      const { items } = await evaluator.run({
        kind: 'dtr_prefill' as const,
        package: pkg,
        patientRecord: record,
        now: now.toISOString(),
      });
      return prefilled(questionnaireOf(pkg, items, null));
    } catch (error) {
      if (!isTimeLimit(error)) throw error;
      return prefilled(unprefilled(pkg.canonical, pkg, 'dtr_timed_out'));
    }
  };
}

function prefilled(questionnaire: CaseQuestionnaire): PayerQuestionnaireAnswer {
  return { kind: 'prefilled', questionnaire };
}

function questionnaireOf(
  pkg: QuestionnairePackage,
  items: QuestionnaireItemState[],
  failure: QuestionnaireFallbackReason | null,
): CaseQuestionnaire {
  const pending = pendingLinkIds(items);
  return {
    canonical: pkg.canonical,
    title: pkg.title,
    status: pending.length === 0 ? 'completed' : 'in_progress',
    items,
    pending,
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
