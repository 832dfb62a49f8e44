import type { Diagnosis } from '../cases/case-model';
import type { CriterionResult, EvidenceCitation, ResolvedDiagnosis } from '../clinical/clinical-model';
import { compareRange, judgeTrial } from '../clinical/criteria-engine';
import { ClinicalFactExtractor, MEASUREMENT_NAMES, MEASUREMENT_UNITS } from '../clinical/evidence-extraction';
import type { ClinicalFacts, MeasurementName } from '../clinical/evidence-extraction';
import type { CriterionCheck, CriterionDefinition } from './payer-catalog';
import type { CriterionAnswer, PriorAuthPrefillInput } from './payer-connector';

/**
 * The catalog's lab values by canonical unit: each unit names exactly one measurement, so a criterion
 * written as "LDL ≥ 70 mg/dL" reads what the criteria engine reads as `ldl`.
 */
const MEASUREMENT_BY_UNIT: ReadonlyMap<string, MeasurementName> = new Map(
  MEASUREMENT_NAMES.map((name) => [MEASUREMENT_UNITS[name], name] as const),
);

/** Where a finding came from, searched in this order so the cited one is stable. */
const SOURCE_ORDER = ['diagnosis', 'evidence', 'questionnaire', 'visit note'];

interface Finding {
  answer: CriterionAnswer['answer'];
  citation: EvidenceCitation;
}

const extractors = new Map<string, ClinicalFactExtractor>();

/** One extractor per vocabulary, built on first use: building compiles the mention pattern. */
function extractorFor(criteria: readonly CriterionDefinition[]): ClinicalFactExtractor {
  const therapies = criteria.flatMap(({ check }) => (check.kind === 'prior_therapy' ? check.drugs : []));
  const conditions = criteria.flatMap(({ check }) =>
    check.kind === 'diagnosis' ? [...check.terms, ...check.code_prefixes] : [],
  );
  const key = JSON.stringify([therapies, conditions]);
  let extractor = extractors.get(key);
  if (!extractor) {
    extractor = new ClinicalFactExtractor(therapies, conditions);
    extractors.set(key, extractor);
  }
  return extractor;
}

/**
 * Answers each criterion from the facts the criteria engine's extractor reads in the record, so a PA
 * prefill and a clinical-eligibility check never disagree about one record. Any supporting finding
 * answers yes; otherwise any contradicting one answers no; otherwise the record is silent (unknown).
 */
export function answerPriorAuthCriteria(
  criteria: readonly CriterionDefinition[],
  input: PriorAuthPrefillInput,
  asOf: string,
): CriterionAnswer[] {
  const diagnoses: ResolvedDiagnosis[] = input.diagnoses.map((diagnosis) => ({
    input: diagnosis,
    code: diagnosis.code,
    description: diagnosis.description ?? null,
    resolved_by: 'code',
  }));
  const facts = extractorFor(criteria).extract(
    {
      patient: input.patient,
      asOf,
      drugs: [{ name: input.drug.name ?? input.drug.ndc ?? '', quantity: input.drug.quantity }],
      diagnoses: input.diagnoses,
      questionnaires: input.questionnaires,
      visitNotes: input.visitNotes,
      evidence: input.evidence.map(({ title, date_created, content }) => ({ title, date_created, content })),
    },
    diagnoses,
  );
  return criteria.map((criterion) => {
    const findings = sortedBySource([
      ...codeFindings(criterion.check, input.diagnoses),
      ...findingsFor(criterion.check, facts),
    ]);
    const decisive =
      findings.find((finding) => finding.answer === 'yes') ??
      findings.find((finding) => finding.answer === 'no');
    return {
      id: criterion.id,
      question: criterion.question,
      answer: decisive?.answer ?? 'unknown',
      source: decisive ? cited(decisive.citation) : null,
    };
  });
}

/** The request's diagnoses are its own statement of what is treated: none matching is a no. */
function codeFindings(check: CriterionCheck, diagnoses: readonly Diagnosis[]): Finding[] {
  if (check.kind !== 'diagnosis' || diagnoses.length === 0) return [];
  const prefixes = check.code_prefixes.map(compactCode);
  const matching = diagnoses.find((diagnosis) =>
    prefixes.some((prefix) => compactCode(diagnosis.code).startsWith(prefix)),
  );
  if (matching) return [{ answer: 'yes', citation: { source: `diagnosis ${matching.code}`, excerpt: '' } }];
  return [
    {
      answer: 'no',
      citation: {
        source: `diagnoses ${diagnoses.map((diagnosis) => diagnosis.code).join(', ')}`,
        excerpt: '',
      },
    },
  ];
}

function findingsFor(check: CriterionCheck, facts: ClinicalFacts): Finding[] {
  switch (check.kind) {
    case 'diagnosis': {
      const terms = new Set([...check.terms, ...check.code_prefixes].map((term) => term.toLowerCase()));
      return facts.conditions
        .filter((fact) => terms.has(fact.condition))
        .map((fact) => ({ answer: fact.present ? 'yes' : 'no', citation: fact.citation }));
    }
    case 'lab_value': {
      const name = MEASUREMENT_BY_UNIT.get(check.unit);
      return facts.measurements
        .filter((fact) => fact.name === name)
        .flatMap((fact): Finding[] => {
          const answer = ANSWER_OF_STATUS[compareRange(fact.range, '>=', check.minimum)];
          return answer ? [{ answer, citation: fact.citation }] : [];
        });
    }
    case 'prior_therapy': {
      const drugs = new Set(check.drugs.map((drug) => drug.toLowerCase()));
      const requiredDays = (check.minimum_months ?? 0) * 30;
      return facts.therapies
        .filter((fact) => drugs.has(fact.therapy))
        .flatMap((fact): Finding[] => {
          const answer = ANSWER_OF_STATUS[judgeTrial(fact, requiredDays)];
          return answer ? [{ answer, citation: fact.citation }] : [];
        });
    }
  }
}

const ANSWER_OF_STATUS: Readonly<Record<CriterionResult['status'], Finding['answer'] | undefined>> = {
  met: 'yes',
  not_met: 'no',
  unknown: undefined,
};

function sortedBySource(findings: Finding[]): Finding[] {
  const rank = (finding: Finding) => {
    const index = SOURCE_ORDER.findIndex((prefix) => finding.citation.source.startsWith(prefix));
    return index === -1 ? SOURCE_ORDER.length : index;
  };
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => rank(a.finding) - rank(b.finding) || a.index - b.index)
    .map(({ finding }) => finding);
}

/** A clinician-readable source: `visit note 2026-02-10: "metformin for 6 weeks"`, `questionnaire: "…?" → "Yes"`. */
function cited({ source, excerpt }: EvidenceCitation): string {
  if (!excerpt) return source;
  return source.startsWith('questionnaire') ? `${source} → "${excerpt}"` : `${source}: "${excerpt}"`;
}

function compactCode(code: string): string {
  return code.replace(/[^a-z0-9]/gi, '').toUpperCase();
}
