import type { ClinicalEligibilityRequest } from '../domain/cases/clinical-eligibility-request';
import type { ClinicalEligibilityOutcome, EvaluatedPlan } from '../domain/clinical/clinical-model';
import type { PayerConnector } from '../domain/payers/payer-connector';
import type { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import type { DocumentReadingsRepository } from '../infrastructure/documents/document-readings.repository';
import type { ClinicalEvaluator } from '../infrastructure/clinical/evaluation-pool';
import { attemptDeadline } from './attempt-deadline';
import { evidenceReader } from './evidence-reading';

export interface ClinicalActivityDependencies {
  documents: CaseDocumentsRepository;
  readings: DocumentReadingsRepository;
  evaluator: ClinicalEvaluator;
  /**
   * Finds the catalog plan of the request's insurance data, whose formulary gives the criteria and the
   * PA requirement: CatalogPlanResolver (infrastructure/connectors/plan-resolution.ts), in-process, so
   * the answer depends on the request alone.
   */
  plans: Pick<PayerConnector, 'resolvePlan'>;
}

export const createClinicalActivities = ({
  documents,
  readings,
  evaluator,
  plans,
}: ClinicalActivityDependencies) => {
  const readEvidence = evidenceReader({ documents, readings });
  return {
    /**
     * Runs the criteria engine in the evaluator (a thread pool with a time limit), bounded by this
     * attempt's deadline. Text assets are read here, inside the activity, so document contents never pass
     * through workflow history.
     */
    async evaluateClinicalEligibility(input: {
      request: ClinicalEligibilityRequest;
      asOf: string;
    }): Promise<ClinicalEligibilityOutcome> {
      const deadline = attemptDeadline();
      const { request } = input;
      const { evidence, unread } = await readEvidence(request.evidence);
      const resolution = request.insurance_content
        ? await plans.resolvePlan({ content: request.insurance_content, cardTexts: [] })
        : undefined;
      const outcome = await evaluator.run(
        {
          kind: 'clinical_eligibility',
          ...(resolution?.resolved ? { planId: resolution.plan.plan_id } : {}),
          record: {
            patient: { date_of_birth: request.patient.date_of_birth, gender: request.patient.gender },
            asOf: input.asOf,
            drugs: request.drugs,
            diagnoses: request.diagnoses,
            questionnaires: request.questionnaires,
            visitNotes: request.visit_notes,
            evidence,
          },
        },
        { deadline },
      );
      return {
        ...outcome,
        ...(resolution ? { plan: evaluatedPlan(resolution) } : {}),
        ...(unread.length > 0 ? { unread } : {}),
      };
    },
  };
};

function evaluatedPlan(resolution: Awaited<ReturnType<PayerConnector['resolvePlan']>>): EvaluatedPlan {
  if (!resolution.resolved) return { resolved: false, reason: resolution.reason };
  const { payer_name, plan_name, plan_type } = resolution.plan;
  return { resolved: true, payer_name, plan_name, plan_type };
}
