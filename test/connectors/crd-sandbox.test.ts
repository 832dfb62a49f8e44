import { catalogFallback } from '../../domain/payers/coverage-requirements';
import { PayerCatalog } from '../../domain/payers/payer-catalog';
import type {
  CatalogDrug,
  CatalogPlan,
  CatalogData,
  CriterionDefinition,
} from '../../domain/payers/payer-catalog';
import { shippedPayerCatalog } from '../../infrastructure/catalogs/shipped-catalogs';
import { simulatedCoverageRequirements } from '../../infrastructure/connectors/crd/simulated-crd-service';
import { crdQuery, crdQueryFor, sandboxPlan } from '../fixtures/crd/crd-fixtures';

const QUESTIONNAIRES = 'http://sandbox.healthcare-access-api.example/fhir/Questionnaire';
const SUMMIT_CHOICE_HMO = sandboxPlan('summit_choice_hmo');

/** The sandbox catalog as it would be if one drug's criteria were missing (the shipped one refuses that). */
class CatalogWithoutCriteriaFor extends PayerCatalog {
  constructor(
    private readonly drugId: string,
    data: CatalogData,
  ) {
    super(data);
  }

  override criteriaFor(drug: CatalogDrug, plan?: CatalogPlan): CriterionDefinition[] {
    return drug.id === this.drugId ? [] : super.criteriaFor(drug, plan);
  }
}

const answered = (query = crdQuery()) => {
  const answer = simulatedCoverageRequirements(query);
  expect(answer.kind).toBe('answered');
  return (answer as Extract<typeof answer, { kind: 'answered' }>).requirements;
};

describe("The sandbox payer's CRD service", () => {
  it("answers auth-needed for a drug the plan authorizes, naming the drug's questionnaire", () => {
    expect(answered()).toEqual({
      source: 'crd',
      covered: 'covered',
      pa_needed: 'auth-needed',
      doc_needed: 'clinical',
      info_needed: [],
      questionnaires: [`${QUESTIONNAIRES}/remicade`],
      instructions: [
        {
          summary: 'Prior authorization needed for Remicade',
          detail:
            "Answer the payer's questionnaire for this drug and send the request with the clinical documentation that supports it.",
        },
      ],
      reason: null,
      expires_at: null,
      satisfied_pa_id: null,
      fallback_reason: null,
    });
  });

  it('answers no-auth for a drug the plan covers without authorization', () => {
    expect(answered(crdQueryFor({ drug_name: 'Jardiance 10 mg tablet', quantity: 30 }))).toMatchObject({
      covered: 'covered',
      pa_needed: 'no-auth',
      questionnaires: [],
      instructions: [{ summary: 'No prior authorization needed for Jardiance on this plan', detail: null }],
    });
  });

  it("answers from the member's plan: Trulicity needs authorization on one plan and none on another", () => {
    const trulicity = { drug_name: 'Trulicity 1.5 mg pen', quantity: 4 };
    expect(answered(crdQueryFor(trulicity)).pa_needed).toBe('auth-needed');
    expect(answered(crdQueryFor(trulicity, { plan: SUMMIT_CHOICE_HMO })).pa_needed).toBe('no-auth');
  });

  it('answers not-covered, with why, for a drug the plan excludes or leaves off its formulary', () => {
    expect(
      answered(crdQueryFor({ drug_name: 'Wegovy 2.4 mg pen', quantity: 4 }, { plan: SUMMIT_CHOICE_HMO })),
    ).toMatchObject({
      covered: 'not-covered',
      pa_needed: null,
      reason: 'The plan does not cover this drug: it is excluded or not on its formulary.',
    });
  });

  it('answers conditional, with why, for a drug outside the catalog, which has no criteria', () => {
    expect(answered(crdQueryFor({ drug_name: 'Zyntravex 20 mg tablet', quantity: 30 }))).toMatchObject({
      covered: 'conditional',
      pa_needed: 'conditional',
      questionnaires: [],
      reason: 'The payer has no coverage policy for this drug; it decides on review.',
    });
  });

  it('answers conditional, with why, for a drug needing authorization whose criteria the catalog lacks', () => {
    const withoutRemicadeCriteria = new CatalogWithoutCriteriaFor('remicade', shippedPayerCatalog().data);
    const answer = simulatedCoverageRequirements(crdQuery(), { catalog: withoutRemicadeCriteria });
    expect(answer).toMatchObject({
      kind: 'answered',
      requirements: {
        pa_needed: 'conditional',
        questionnaires: [],
        reason: 'The payer has published no criteria for this drug; it decides on review.',
      },
    });
  });

  it('answers no-auth when mock_result.coverage_requirements says so, whatever the formulary says', () => {
    expect(answered(crdQuery({ mock: 'no-auth' })).pa_needed).toBe('no-auth');
  });

  it('answers auth-needed when mock_result.coverage_requirements says so, even for a drug without authorization', () => {
    const jardiance = crdQueryFor(
      { drug_name: 'Jardiance 10 mg tablet', quantity: 30 },
      { mock: 'auth-needed' },
    );
    expect(answered(jardiance)).toMatchObject({
      pa_needed: 'auth-needed',
      questionnaires: [`${QUESTIONNAIRES}/jardiance`],
    });
  });

  it('plays an unreachable service when mock_result.coverage_requirements is unavailable', () => {
    expect(simulatedCoverageRequirements(crdQuery({ mock: 'unavailable' }))).toEqual({
      kind: 'fallback',
      requirements: catalogFallback('crd_unavailable'),
    });
  });
});
