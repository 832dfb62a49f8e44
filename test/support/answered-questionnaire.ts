import type { CaseQuestionnaire, QuestionnaireItemState } from '../../domain/dtr/questionnaire';

/** A required boolean item, unanswered and shown, unless `overrides` say otherwise. */
export function questionnaireItem(
  overrides: Partial<QuestionnaireItemState> & Pick<QuestionnaireItemState, 'link_id'>,
): QuestionnaireItemState {
  return {
    parent_link_id: null,
    text: `Question ${overrides.link_id}?`,
    type: 'boolean',
    required: true,
    repeats: false,
    read_only: false,
    options: null,
    enable_when: null,
    enable_behavior: null,
    enabled: true,
    answer: null,
    origin: null,
    source: null,
    author: null,
    ...overrides,
  };
}

/**
 * A payer's questionnaire as a case keeps it once answered: a group with an answer the CQL gave, one a
 * person changed, one a person gave, a coded and a dated answer, and a proposal nobody confirmed.
 */
export function answeredQuestionnaire(): CaseQuestionnaire {
  const cql = (reference: string) => ({ kind: 'cql' as const, reference });
  const person = { kind: 'person' as const, reference: 'Dr. Example' };
  return {
    canonical: 'http://payer.example/fhir/Questionnaire/infliximab|3',
    title: 'Infliximab prior authorization',
    status: 'completed',
    pending: [],
    prefill_failure: null,
    items: [
      questionnaireItem({ link_id: 'history', type: 'group', required: false, text: 'History' }),
      questionnaireItem({
        link_id: 'adult',
        parent_link_id: 'history',
        answer: true,
        origin: 'auto',
        source: cql('"PayerInfliximab".adult'),
      }),
      questionnaireItem({
        link_id: 'diagnosis',
        parent_link_id: 'history',
        type: 'choice',
        options: [
          { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'K50.90', display: "Crohn's disease" },
          { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'M05.9', display: 'Rheumatoid arthritis' },
        ],
        answer: { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'K50.90', display: "Crohn's disease" },
        origin: 'override',
        source: person,
        author: 'Dr. Example',
      }),
      questionnaireItem({
        link_id: 'tb_screened_on',
        type: 'date',
        answer: '2026-09-14',
        origin: 'manual',
        source: person,
        author: 'Dr. Example',
      }),
      questionnaireItem({
        link_id: 'weight_kg',
        type: 'decimal',
        answer: 71.5,
        origin: 'auto',
        source: cql('"PayerInfliximab".weight'),
      }),
      questionnaireItem({
        link_id: 'steroid_trial',
        required: false,
        answer: true,
        origin: 'proposed',
        source: { kind: 'evidence', reference: 'Visit note: prednisone 40 mg for 8 weeks' },
      }),
    ],
  };
}
