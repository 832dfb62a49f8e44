import type { PlanType } from '../cases/case-model';
import type { DrugRequest } from '../cases/benefit-verification-request';
import type { PlanFormulary } from '../clinical/clinical-model';
import type { CriterionCheck as ClinicalCheck, CriterionGroup } from '../clinical/criteria';
import type { ClinicalCatalog } from '../clinical/criteria-catalog';
import { containsWords, normalizeName, normalizeNdc } from './name-matching';
import type { BenefitsCheck, BenefitsOutcome, DrugCoverage, PriorAuthRequirement } from './payer-connector';

export { containsWords, normalizeName, normalizeNdc };

/**
 * A plan's deductible or out-of-pocket totals for a plan year. Family and out-of-network totals are
 * absent where the plan has none (an HMO pays nothing out of network; Medicaid has no family level).
 */
export interface PlanLimits {
  individual_cents: number;
  family_cents?: number;
  out_of_network_individual_cents?: number;
  out_of_network_family_cents?: number;
}

export interface CatalogPlan {
  id: string;
  name: string;
  plan_type: PlanType;
  pcn: string;
  rx_group: string;
  formulary_id: string;
  /** Medicare plans with the standard Part D deductible take it from the Part D table. */
  deductible: PlanLimits | 'medicare_part_d_standard';
  /** Medicare plans' out-of-pocket total is the Part D threshold of the plan year. */
  out_of_pocket: PlanLimits | 'medicare_part_d_threshold';
}

/** The defined standard Part D benefit of one plan year, with where its figures come from. */
export interface PartDParameters {
  year: number;
  standard_deductible_cents: number;
  out_of_pocket_threshold_cents: number;
  source: string;
}

export interface CatalogPayer {
  id: string;
  name: string;
  /** Other names printed on cards or typed by staff ("Blue Horizon", "BHH"). */
  aliases: string[];
  bin: string;
  pharmacy_benefit_manager_name: string;
  plans: CatalogPlan[];
}

export interface CatalogDrug {
  id: string;
  /** Null for drugs dispensed as generics. */
  brand_name: string | null;
  generic_name: string;
  /** 11 digits, no hyphens (5-4-2). */
  ndc: string;
  /**
   * Medical-benefit drugs (infusions given in a clinic) are billed by the provider under a HCPCS
   * code and never appear on a pharmacy formulary.
   */
  benefit: 'pharmacy' | 'medical';
  hcpcs_code: string | null;
}

export type CopayOption = DrugCoverage['copay_options'][number];

export type FormularyEntry =
  | {
      status: 'covered';
      tier: number;
      prior_authorization_required: boolean;
      /** Drugs the plan wants tried first; empty when there is no step therapy. */
      step_therapy: string[];
      /** Units per 30 days. */
      quantity_limit: number | null;
      copays: CopayOption[];
    }
  | { status: 'excluded'; reason: string };

export interface Formulary {
  id: string;
  name: string;
  /** By catalog drug id; a drug absent here is not on the formulary. */
  drugs: Record<string, FormularyEntry>;
}

/**
 * What one prior-authorization criterion checks: one of the criteria engine's checks, or a group of
 * them answered as a whole (`group`).
 */
export type CriterionCheck = ClinicalCheck | { kind: 'group'; group: CriterionGroup };

/** One criterion as a payer asks it: a top-level criterion of the drug's clinical criteria on the plan. */
export interface CriterionDefinition {
  id: string;
  question: string;
  check: CriterionCheck;
}

export type MockDrugCoverage = Omit<
  DrugCoverage,
  'drug' | 'ndc' | 'copay' | 'determination_details' | 'has_active_prior_auth'
> & { is_on_formulary: boolean; is_explicit_plan_exclusion: boolean };

export type BvMockDefinition = { description: string } & (
  | {
      result: 'completed';
      coverage_status: BenefitsOutcome['coverage_status'];
      /** Applied to every requested drug; null when the payer answers nothing about drugs. */
      drug_coverage: MockDrugCoverage | null;
    }
  | { result: 'inconclusive'; reason: string }
);

export type PayerFailure = Extract<BenefitsCheck, { kind: 'failed' }>['error'];

export interface CatalogData {
  payers: CatalogPayer[];
  drugs: CatalogDrug[];
  formularies: Formulary[];
  /** The clinical criteria catalog: the one source of the criteria clinical eligibility and PA apply. */
  criteria: ClinicalCatalog;
  mockCases: Record<string, BvMockDefinition>;
  mockFailure: PayerFailure;
  /** Oldest year first. */
  partD: PartDParameters[];
}

/** The sandbox payers, plans, formularies and BV mock cases of `catalog/`, with the clinical criteria. */
export class PayerCatalog {
  private readonly plansById: Map<string, { payer: CatalogPayer; plan: CatalogPlan }>;

  constructor(readonly data: CatalogData) {
    this.plansById = new Map(
      data.payers.flatMap((payer) => payer.plans.map((plan) => [plan.id, { payer, plan }] as const)),
    );
  }

  get payers(): CatalogPayer[] {
    return this.data.payers;
  }

  get drugs(): CatalogDrug[] {
    return this.data.drugs;
  }

  get formularies(): Formulary[] {
    return this.data.formularies;
  }

  /** A payer whose name or alias the text contains as whole words; full names win over aliases. */
  findPayerNamedIn(text: string): CatalogPayer | undefined {
    const normalized = normalizeName(text);
    return (
      this.payers.find((payer) => containsWords(normalized, normalizeName(payer.name))) ??
      this.payers.find((payer) =>
        payer.aliases.some((alias) => containsWords(normalized, normalizeName(alias))),
      )
    );
  }

  findPayerByBin(bin: string): CatalogPayer | undefined {
    return this.payers.find((payer) => payer.bin === bin.trim());
  }

  findPlan(planId: string): { payer: CatalogPayer; plan: CatalogPlan } | undefined {
    return this.plansById.get(planId);
  }

  /**
   * The drug a request names: by NDC, else by a brand name anywhere in the text ("Ozempic 1 mg pen"),
   * else by a generic name. A generic shared by several brands ("semaglutide") gives the first listed.
   */
  findDrug(request: Pick<DrugRequest, 'name' | 'ndc'>): CatalogDrug | undefined {
    if (request.ndc) {
      const ndc = normalizeNdc(request.ndc);
      const byNdc = this.drugs.find((drug) => drug.ndc === ndc);
      if (byNdc || !request.name) return byNdc;
    }
    const name = normalizeName(request.name ?? '');
    return (
      this.drugs.find((drug) => drug.brand_name && containsWords(name, normalizeName(drug.brand_name))) ??
      this.drugs.find((drug) => containsWords(name, normalizeName(drug.generic_name)))
    );
  }

  formularyEntry(formularyId: string, drugId: string): FormularyEntry | undefined {
    return this.formularies.find((formulary) => formulary.id === formularyId)?.drugs[drugId];
  }

  /**
   * The prior-authorization criteria of a drug on a plan: the top-level criteria of its clinical
   * criteria on the plan's formulary, each with the question a payer asks. Without a plan, the drug's
   * own criteria.
   */
  criteriaFor(drug: CatalogDrug, plan?: CatalogPlan): CriterionDefinition[] {
    const clinicalDrug = this.data.criteria.findDrugById(drug.id);
    const tree = clinicalDrug && this.data.criteria.criteriaFor(clinicalDrug, plan?.formulary_id ?? null);
    return (tree?.all_of ?? []).map(({ id, question, ...node }) => ({
      id,
      question,
      check: 'check' in node ? node.check : { kind: 'group', group: node as CriterionGroup },
    }));
  }

  /**
   * Whether a plan with this formulary requires prior authorization for the drug, as benefit
   * verification says it: a medical-benefit drug always (every sandbox plan's medical policy asks for
   * it); a covered drug as its formulary entry says; a drug not covered, not applicable.
   */
  priorAuthorizationRequirement(formularyId: string, drug: CatalogDrug): PriorAuthRequirement {
    if (drug.benefit === 'medical') return 'yes';
    const entry = this.formularyEntry(formularyId, drug.id);
    if (entry?.status !== 'covered') return 'not_applicable';
    return entry.prior_authorization_required ? 'yes' : 'no';
  }

  /**
   * What most sandbox formularies say about prior authorization for the drug, for a check that names
   * no plan; a tie goes to the stricter answer (yes, then no).
   */
  typicalPriorAuthorizationRequirement(drug: CatalogDrug): PriorAuthRequirement {
    const answers = this.formularies.map((formulary) =>
      this.priorAuthorizationRequirement(formulary.id, drug),
    );
    const count = (answer: PriorAuthRequirement) => answers.filter((given) => given === answer).length;
    return (['yes', 'no', 'not_applicable'] as const).reduce((best, answer) =>
      count(answer) > count(best) ? answer : best,
    );
  }

  /**
   * What clinical eligibility reads of a plan: its formulary (whose criteria overrides apply) and its
   * prior-authorization requirements; with no plan, each drug's own criteria and the typical requirement.
   */
  planFormulary(plan: CatalogPlan | undefined): PlanFormulary {
    return {
      formularyId: plan?.formulary_id ?? null,
      priorAuthorizationFor: (drugId) => {
        const drug = this.drugs.find((candidate) => candidate.id === drugId);
        if (!drug) return 'not_applicable';
        return plan
          ? this.priorAuthorizationRequirement(plan.formulary_id, drug)
          : this.typicalPriorAuthorizationRequirement(drug);
      },
    };
  }

  mockCase(name: string): BvMockDefinition | undefined {
    return this.data.mockCases[name];
  }

  get mockFailure(): PayerFailure {
    return this.data.mockFailure;
  }

  /**
   * The Part D parameters of a plan year; a year the table does not reach yet uses its newest year
   * (`assumed` says so), and a year before it uses its oldest.
   */
  partDParameters(year: number): { parameters: PartDParameters; assumed: boolean } {
    const table = this.data.partD;
    const exact = table.find((entry) => entry.year === year);
    if (exact) return { parameters: exact, assumed: false };
    const newest = table[table.length - 1]!;
    return { parameters: year > newest.year ? newest : table[0]!, assumed: true };
  }

  /**
   * Under which benefit the catalog bills a prescribed drug: `medical` (a provider-given infusion,
   * whose prior authorization goes over Da Vinci PAS), `pharmacy`, or undefined when the catalog does
   * not know the drug. The one answer the API's refusal, the channel choice and the PAS writer share.
   */
  prescribedDrugBenefit(prescription: {
    drug_name?: string | null;
    ndc?: string | null;
  }): CatalogDrug['benefit'] | undefined {
    return this.findDrug({
      name: prescription.drug_name ?? undefined,
      ndc: prescription.ndc ?? undefined,
    })?.benefit;
  }
}
