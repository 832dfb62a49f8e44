import type {
  ClinicalEligibilityOutcome,
  ClinicalRecord,
  PlanFormulary,
} from '../../domain/clinical/clinical-model';
import { evaluateClinicalEligibility } from '../../domain/clinical/criteria-evaluation';
import type { CriterionDefinition } from '../../domain/payers/payer-catalog';
import type { CriterionAnswer, PriorAuthPrefillInput } from '../../domain/payers/payer-connector';
import { answerPriorAuthCriteria } from '../../domain/payers/prior-auth-criteria';
import { shippedPayerCatalog, shippedClinicalCatalog } from '../catalogs/shipped-catalogs';

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
    };

export type EvaluationResult<Task extends EvaluationTask> = Task extends { kind: 'clinical_eligibility' }
  ? ClinicalEligibilityOutcome
  : CriterionAnswer[];

/** Runs one task where it is called: inside a pool thread, or inline when no pool is configured. */
export function runEvaluationTask<Task extends EvaluationTask>(task: Task): EvaluationResult<Task> {
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
  }
  throw new Error(`Unknown evaluation task ${(task as { kind: string }).kind}`);
}

function planFormulary(planId: string | undefined): PlanFormulary {
  const catalog = shippedPayerCatalog();
  return catalog.planFormulary(planId === undefined ? undefined : catalog.findPlan(planId)?.plan);
}
