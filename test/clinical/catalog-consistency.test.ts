import { MockActivityEnvironment } from '@temporalio/testing';

import { createClinicalActivities } from '../../activities/clinical.activities';
import type { InsuranceContent } from '../../domain/cases/case-model';
import type { ClinicalEligibilityRequest } from '../../domain/cases/clinical-eligibility-request';
import type {
  ClinicalEligibilityOutcome,
  ClinicalRecord,
  DrugEligibility,
} from '../../domain/clinical/clinical-model';
import type { CatalogDrug, CatalogPayer, CatalogPlan } from '../../domain/payers/payer-catalog';
import type {
  CriterionAnswer,
  PriorAuthDetermination,
  PriorAuthPrefillInput,
  ResolvedPlan,
} from '../../domain/payers/payer-connector';
import type { CaseDocumentsRepository } from '../../infrastructure/cases/case-documents.repository';
import { inlineEvaluator } from '../../infrastructure/clinical/evaluation-pool';
import type { DocumentReadingsRepository } from '../../infrastructure/documents/document-readings.repository';
import { PayerSimulator } from '../../infrastructure/connectors/payer-simulator';
import { DRUG_CASES } from './drug-cases';
import { AS_OF, syntheticRecord, visitNote } from './synthetic-records';
import { shippedIcd10Subset, shippedPayerCatalog } from '../../infrastructure/catalogs/shipped-catalogs';

/**
 * Walks every catalog drug through clinical eligibility, benefit verification and the PA prefill and
 * decision, on the same synthetic records, for every sandbox plan: the three must agree about the patient.
 */
const catalog = shippedPayerCatalog();
const simulator = new PayerSimulator({ now: () => new Date(`${AS_OF}T12:00:00Z`) });
const clinical = createClinicalActivities({
  documents: {} as CaseDocumentsRepository,
  readings: {} as DocumentReadingsRepository,
  evaluator: inlineEvaluator,
  plans: simulator,
});

const PLANS = catalog.payers.flatMap((payer) => payer.plans.map((plan) => [plan.id, payer, plan] as const));
const PATIENT = { first_name: 'Avery', last_name: 'Sample' };
const DETERMINED_ON_CRITERIA = ['medical_necessity_criteria_not_met', 'step_therapy_criteria_not_met'];

function insuranceFor(payer: CatalogPayer, plan: CatalogPlan): InsuranceContent {
  return { payer: payer.name, member_id: 'SBX100200', rx_pcn: plan.pcn, plan_type: plan.plan_type };
}

/** A drug's records: the qualifying and non-qualifying ones of its drug case, or a bare record. */
function recordsOf(drug: CatalogDrug): Array<Partial<ClinicalRecord>> {
  const drugCase = DRUG_CASES.find((candidate) => candidate.drug === (drug.brand_name ?? drug.generic_name));
  return drugCase ? [drugCase.qualifying, drugCase.nonQualifying].map(expressibleInBoth) : [{}];
}

/**
 * A PA request carries evidence as JSON only; evidence text (a file's contents in a CE request)
 * goes in a visit note of the same day instead, so both checks read the same words.
 */
function expressibleInBoth(record: Partial<ClinicalRecord>): Partial<ClinicalRecord> {
  const evidence = record.evidence ?? [];
  return {
    ...record,
    evidence: evidence.filter((item) => item.text === undefined),
    visitNotes: [
      ...(record.visitNotes ?? []),
      ...evidence.flatMap((item) =>
        item.text === undefined ? [] : [visitNote(item.text, item.date_created.slice(0, 10))],
      ),
    ],
  };
}

interface Walked {
  drug: string;
  clinicalEligibility: DrugEligibility;
  benefitRequirement: string;
  criteria: CriterionAnswer[];
  determination: PriorAuthDetermination | null;
}

async function evaluateClinically(
  record: ClinicalRecord,
  insurance: InsuranceContent,
): Promise<DrugEligibility> {
  const request: ClinicalEligibilityRequest = {
    patient: { ...PATIENT, ...record.patient } as ClinicalEligibilityRequest['patient'],
    drugs: record.drugs,
    diagnoses: record.diagnoses,
    questionnaires: record.questionnaires,
    visit_notes: record.visitNotes,
    evidence: record.evidence.map(({ title, date_created, content }) => ({ title, date_created, content })),
    insurance_content: insurance,
  };
  const outcome: ClinicalEligibilityOutcome = await new MockActivityEnvironment().run(
    clinical.evaluateClinicalEligibility,
    { request, asOf: AS_OF },
  );
  return outcome.results[0]!;
}

async function askPayer(
  record: ClinicalRecord,
  plan: ResolvedPlan,
): Promise<Pick<Walked, 'criteria' | 'determination'>> {
  const drug = { name: record.drugs[0]!.name, quantity: 1 };
  const prefillInput: PriorAuthPrefillInput = {
    plan,
    drug,
    patient: record.patient,
    // A PA request states each diagnosis as a code: the one CE resolves the description to.
    diagnoses: record.diagnoses.map((diagnosis) => ({
      code: shippedIcd10Subset().resolve(diagnosis).code ?? diagnosis.code ?? 'R69',
      ...(diagnosis.description ? { description: diagnosis.description } : {}),
    })),
    evidence: record.evidence.map(({ title, date_created, content }) => ({
      title,
      date_created,
      content: content ?? {},
    })),
    questionnaires: record.questionnaires,
    visitNotes: record.visitNotes,
  };
  const { criteria } = await simulator.prefillPriorAuthorization(prefillInput);
  const submission = { caseId: 'pa_consistency', plan, drug, urgency: 'standard' as const, criteria };
  const determination = await simulator.checkDetermination({
    ...submission,
    payer_reference: (await simulator.submitPriorAuthorization(submission)).payer_reference,
    checksSoFar: 1,
  });
  return { criteria, determination };
}

async function walk(payer: CatalogPayer, plan: CatalogPlan): Promise<Walked[]> {
  const insurance = insuranceFor(payer, plan);
  const resolution = await simulator.resolvePlan({ content: insurance, cardTexts: [] });
  if (!resolution.resolved || resolution.plan.plan_id !== plan.id)
    throw new Error(`${plan.id} did not resolve`);
  const walked: Walked[] = [];
  for (const drug of catalog.drugs) {
    const name = drug.brand_name ?? drug.generic_name;
    const benefits = await simulator.checkBenefits({
      insurance: { content: insurance, cardTexts: [] },
      patient: { ...PATIENT, date_of_birth: '1975-06-15' },
      drugs: [{ name, quantity: 1 }],
    });
    if (benefits.kind !== 'completed') throw new Error(`${plan.id}: no benefits for ${name}`);
    for (const partial of recordsOf(drug)) {
      const record = syntheticRecord({ ...partial, drugs: [{ name, quantity: 1 }] });
      walked.push({
        drug: name,
        clinicalEligibility: await evaluateClinically(record, insurance),
        benefitRequirement: benefits.outcome.drugs[0]!.prior_authorization_required,
        ...(await askPayer(record, resolution.plan)),
      });
    }
  }
  return walked;
}

describe.each(PLANS)('on the plan %s', (_planId, payer, plan) => {
  let walked: Walked[];
  beforeAll(async () => {
    walked = await walk(payer, plan);
  });

  it('clinical eligibility says whether each drug needs prior authorization exactly as benefit verification does', () => {
    const disagreements = walked
      .filter((step) => step.clinicalEligibility.prior_authorization_requirement !== step.benefitRequirement)
      .map((step) => [
        step.drug,
        step.clinicalEligibility.prior_authorization_requirement,
        step.benefitRequirement,
      ]);
    expect(disagreements).toEqual([]);
  });

  it('answers every PA criterion yes for a patient qualified in clinical eligibility, so the payer does not deny on criteria', () => {
    const qualified = walked.filter((step) => step.clinicalEligibility.status === 'qualified');
    const contradicted = qualified
      .filter(
        (step) =>
          step.criteria.some((criterion) => criterion.answer !== 'yes') ||
          (step.determination?.result === 'denied' &&
            DETERMINED_ON_CRITERIA.includes(step.determination.detail_code)),
      )
      .map((step) => [step.drug, step.criteria, step.determination?.detail_code]);
    expect(contradicted).toEqual([]);
  });

  it('never approves on criteria a patient unqualified in clinical eligibility', () => {
    const unqualified = walked.filter((step) => step.clinicalEligibility.status === 'unqualified');
    const approved = unqualified
      .filter(
        (step) =>
          !step.criteria.some((criterion) => criterion.answer === 'no') ||
          (step.determination?.result === 'approved' && step.determination.detail_code === 'approval'),
      )
      .map((step) => [step.drug, step.criteria, step.determination?.detail_code]);
    expect(approved).toEqual([]);
  });
});

it('overrides criteria only for formularies the catalog has', () => {
  const formularies = catalog.formularies.map((formulary) => formulary.id);
  const named = catalog.data.criteria.criteria.flatMap((entry) =>
    (entry.formulary_overrides ?? []).flatMap((override) => override.formularies),
  );
  expect(named.filter((id) => !formularies.includes(id))).toEqual([]);
});

it('walks a qualified and an unqualified record of every drug with criteria on some plan', async () => {
  const [, payer, plan] = PLANS[0]!;
  const walked = await walk(payer, plan);
  const withCriteria = DRUG_CASES.map((drugCase) => drugCase.drug);
  const statuses = (status: string) =>
    new Set(walked.filter((step) => step.clinicalEligibility.status === status).map((step) => step.drug));
  expect([...statuses('qualified')].filter((drug) => withCriteria.includes(drug as never)).sort()).toEqual(
    [...withCriteria].sort(),
  );
  expect([...statuses('unqualified')].sort()).toEqual([...withCriteria].sort());
});
