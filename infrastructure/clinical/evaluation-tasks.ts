import type {
  ClinicalEligibilityOutcome,
  ClinicalEvidence,
  ClinicalRecord,
  PlanFormulary,
} from '../../domain/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../../domain/clinical/criteria-evaluation';
import type { CriterionDefinition } from '../../domain/payers/payer-catalog';
import type { CriterionAnswer, PriorAuthPrefillInput } from '../../domain/payers/payer-connector';
import { answerPriorAuthCriteria } from '../../domain/payers/prior-auth-criteria';
import { shippedPayerCatalog, shippedClinicalCatalog } from '../catalogs/shipped-catalogs';
import { prefillQuestionnaire } from '../dtr/cql-prefill';
import type { FhirBundle, PrefillResult } from '../dtr/cql-prefill';
import type { QuestionnairePackage } from '../dtr/questionnaire-package';
import { patientRecordBundle, recordFacts } from '../dtr/patient-record';
import type { PriorAuthorizationRequest } from '../../domain/cases/prior-authorization-request';

/** A prior authorization's record as DTR's CQL reads it: the request, and its evidence as the activity read it. */
export interface CaseRecordSource {
  caseId: string;
  request: PriorAuthorizationRequest;
  /** File assets as their pages' text, text assets as sent (activities/evidence-reading.ts). */
  evidence: ClinicalEvidence[];
}

/** The CPU-heavy work on clinical text, as messages a worker thread can take. */
export type EvaluationTask =
  | {
      kind: 'clinical_eligibility';
      record: ClinicalRecord;
      /** The catalog plan whose formulary applies; absent when the request named none. */
      planId?: string;
    }
  | {
      kind: 'prior_auth_criteria';
      criteria: CriterionDefinition[];
      input: PriorAuthPrefillInput;
      asOf: string;
    }
  | {
      /** A payer's CQL over a patient's record: its own code, so only a thread can stop it looping. */
      kind: 'dtr_prefill';
      package: QuestionnairePackage;
      /**
       * The patient's record as a Bundle (the CLI, the bench), or the case it is built from, here in
       * the thread, since reading the evidence for its measurements and therapies is CPU work too.
       */
      patientRecord: FhirBundle | CaseRecordSource;
      /** CQL's Now(), as an ISO instant. */
      now: string;
      patientId?: string;
      context?: string[];
    };

export type EvaluationResult<Task extends EvaluationTask> = Task extends { kind: 'clinical_eligibility' }
  ? ClinicalEligibilityOutcome
  : Task extends { kind: 'dtr_prefill' }
    ? PrefillResult
    : CriterionAnswer[];

/**
 * Runs one task where it is called: inside a pool thread, or inline when no pool is configured.
 * Asynchronous because cql-execution is; the clinical tasks still run synchronously within it.
 */
export async function runEvaluationTask<Task extends EvaluationTask>(
  task: Task,
): Promise<EvaluationResult<Task>> {
  switch (task.kind) {
    case 'clinical_eligibility':
      return evaluateClinicalEligibility(
        task.record,
        planFormulary(task.planId),
        shippedClinicalCatalog(),
      ) as EvaluationResult<Task>;
    case 'prior_auth_criteria':
      return answerPriorAuthCriteria(
        task.criteria,
        task.input,
        task.asOf,
        shippedClinicalCatalog(),
      ) as EvaluationResult<Task>;
    case 'dtr_prefill':
      return (await prefillQuestionnaire(task.package, bundleOf(task.patientRecord, new Date(task.now)), {
        now: new Date(task.now),
        ...(task.patientId === undefined ? {} : { patientId: task.patientId }),
        ...(task.context === undefined ? {} : { context: task.context }),
      })) as EvaluationResult<Task>;
  }
  throw new Error(`Unknown evaluation task ${(task as { kind: string }).kind}`);
}

function bundleOf(record: FhirBundle | CaseRecordSource, now: Date): FhirBundle {
  if ('resourceType' in record) return record;
  const facts = recordFacts(record.request, now.toISOString().slice(0, 10), record.evidence);
  return patientRecordBundle(record.request, facts, { caseId: record.caseId, now });
}

function planFormulary(planId: string | undefined): PlanFormulary {
  const catalog = shippedPayerCatalog();
  return catalog.planFormulary(planId === undefined ? undefined : catalog.findPlan(planId)?.plan);
}
