import type { BenefitVerificationCase } from '../../../domain/cases/benefit-verification';
import type { CaseObjectType, CaseRecord } from '../../../domain/cases/case-model';
import type { ClinicalEligibilityCase } from '../../../domain/cases/clinical-eligibility';
import type { PatientEnrollmentCase } from '../../../domain/cases/patient-enrollment';
import type { PriorAuthorizationCase } from '../../../domain/cases/prior-authorization';
import type { EnrollmentConfirmation } from '../../../domain/programs/confirmation-model';
import type { EnrollmentOutcome } from '../../../domain/programs/enrollment-model';
import type { PatientAuthorization } from '../../../domain/programs/patient-authorization';
import { definitionList, Fact, table } from '../../common/views';
import { Html, html } from '../../common/views/html';
import { moment } from '../../common/views/markup';
import { criteriaSection } from './case-request-views';
import { cents, dueBadge, statusBadge, text, yesNo } from '../../common/views/case-values';

/**
 * What a case page shows of one case type beyond what every case has. One entry per type, so each
 * type's view can live with the rest of that type.
 */
export interface CaseTypeView<Case extends CaseRecord = CaseRecord> {
  /** Facts of this type, after every case's ids, status and dates. */
  facts(record: Case): Fact[];
  /** What the case came to; undefined while it has come to nothing yet. */
  results(record: Case): Html | undefined;
  /** What a reviewer weighs besides the request (a prefill's criteria); never shown to operators. */
  reviewerSections?(record: Case): Html;
}

export const BENEFIT_VERIFICATION_VIEW: CaseTypeView<BenefitVerificationCase> = {
  facts: () => [],
  results: ({ outcome, error }) => {
    if (!outcome)
      return error ? definitionList([['Payer error', `${error.message} (${error.code})`]]) : undefined;
    const dates = outcome.coverage_dates;
    return html`${definitionList([
      ['Coverage status', text(outcome.coverage_status)],
      ['Coverage type', text(outcome.coverage_type)],
      ['Coverage dates', dates ? `${text(dates.start_date)} to ${text(dates.end_date)}` : '—'],
      ['Payer', text(outcome.payer_name)],
      ['Plan', text(outcome.plan_name)],
      ['Pharmacy benefit manager', text(outcome.pharmacy_benefit_manager_name)],
      ['BIN / PCN', `${text(outcome.bin)} / ${text(outcome.pcn)}`],
      ['Deductible remaining', cents(outcome.deductible?.remaining_cents)],
      ['Out-of-pocket remaining', cents(outcome.out_of_pocket?.remaining_cents)],
      ['Verified manually', yesNo(outcome.verified_manually)],
      ['Notes', text(outcome.notes)],
    ])}
    ${table({
      caption: 'Drug coverage',
      rows: outcome.drugs,
      columns: [
        { heading: 'Drug', cell: (drug) => drug.drug },
        {
          heading: 'Coverage',
          cell: (drug) =>
            html`${drug.coverage.replace('_', ' ')}
            (${drug.coverage_detail_code})${drug.unknown_reason ? html`<br />${drug.unknown_reason}` : ''}`,
        },
        {
          heading: 'Benefit',
          cell: (drug) => `${text(drug.benefit_type)}${drug.hcpcs_code ? ` (HCPCS ${drug.hcpcs_code})` : ''}`,
        },
        { heading: 'Tier', cell: (drug) => text(drug.tier) },
        { heading: 'Prior authorization', cell: (drug) => text(drug.prior_authorization_required) },
        { heading: 'Step therapy', cell: (drug) => yesNo(drug.step_therapy_required) },
        {
          heading: 'Quantity limit',
          cell: (drug) => quantityLimit(drug.quantity_limit, drug.quantity_limit_period_days),
        },
        {
          heading: 'Copay',
          cell: (drug) =>
            drug.copay ? `${cents(drug.copay.amount_cents)} / ${drug.copay.supply_duration_days} days` : '—',
        },
        {
          heading: 'Coinsurance',
          cell: (drug) =>
            typeof drug.coinsurance_percent === 'number' ? `${drug.coinsurance_percent} %` : '—',
        },
        { heading: 'Source', cell: (drug) => text(drug.source) },
      ],
    })}`;
  },
};

/** Results recorded before a field existed lack it, so absent reads as not given. */
function quantityLimit(quantity: number | null, periodDays: number | null | undefined): string {
  if (quantity === null) return '—';
  return periodDays ? `${quantity} per ${periodDays} days` : String(quantity);
}

export const CLINICAL_ELIGIBILITY_VIEW: CaseTypeView<ClinicalEligibilityCase> = {
  facts: () => [],
  results: ({ outcome }) =>
    outcome
      ? table({
          caption: 'Eligibility per drug',
          rows: outcome.results,
          columns: [
            { heading: 'Drug', cell: (result) => result.drug },
            { heading: 'Eligibility', cell: (result) => statusBadge(result.status) },
            {
              heading: 'Criteria met',
              cell: (result) =>
                `${result.criteria.filter((criterion) => criterion.status === 'met').length} of ${result.criteria.length}`,
            },
            {
              heading: 'Prior authorization required',
              cell: (result) =>
                text(result.prior_authorization_requirement ?? result.prior_authorization_required),
            },
            {
              heading: 'Reasons',
              cell: (result) =>
                result.unqualified_reasons.map((reason) => reason.description).join('; ') || '—',
            },
          ],
        })
      : undefined,
};

export const PRIOR_AUTHORIZATION_VIEW: CaseTypeView<PriorAuthorizationCase> = {
  facts: (pa) => {
    const reviewOverdue =
      pa.status === 'awaiting_review' && !!pa.review_due_at && Date.parse(pa.review_due_at) < Date.now();
    return [
      ['Urgency', pa.urgency],
      ['Review due', pa.review_due_at ? dueBadge(pa.review_due_at, reviewOverdue) : '—'],
      [
        'Payer decision due',
        pa.due_at ? dueBadge(pa.due_at, pa.overdue) : 'Set when the payer receives the request',
      ],
      ['Payer reference', pa.submission?.payer_reference],
    ];
  },
  results: ({ review, outcome, pending_request: pending }) => {
    if (!review && !outcome && !pending) return undefined;
    return html`${
      pending &&
      table({
        caption: html`The payer asks for information, answer by ${moment(pending.due_at)}`,
        rows: pending.questions,
        columns: [
          { heading: 'Question id', cell: (question) => html`<code>${question.id}</code>` },
          { heading: 'Question', cell: (question) => question.text },
        ],
      })
    }
    ${
      review &&
      html`<h3>Clinical review</h3>
        ${definitionList([
          ['Decision', review.decision === 'approve' ? 'Approved' : 'Rejected'],
          ['Reviewer', review.reviewer],
          ['Note', text(review.notes)],
          ['Decided', moment(review.decided_at)],
        ])}`
    }
    ${
      outcome &&
      html`<h3>Payer determination</h3>
        ${definitionList([
          ['Result', statusBadge(outcome.result)],
          ['Detail', `${text(outcome.detail)} (${text(outcome.detail_code)})`],
          ['Payer reference', text(outcome.payer_reference)],
          ['Authorization number', text(outcome.authorization_number)],
          ['Approved quantity', text(outcome.approved_quantity)],
          ['Decided', moment(outcome.decided_at)],
          [
            'Authorization',
            `${text(outcome.authorization_start_date)} to ${text(outcome.authorization_expiration)}`,
          ],
        ])}`
    }`;
  },
  reviewerSections: ({ criteria, unread_evidence: unread }) => criteriaSection(criteria, unread),
};

export const PATIENT_ENROLLMENT_VIEW: CaseTypeView<PatientEnrollmentCase> = {
  facts: (enrollment) => [
    ['Program', enrollment.program_id],
    ['Patient authorization', authorizationFact(enrollment.request.patient_authorization)],
  ],
  results: ({ outcome, missing_information: missing }) => {
    if (!outcome && missing.length === 0) return undefined;
    return html`${
      missing.length > 0 &&
      table({
        caption: 'Information the program asked for',
        rows: missing,
        columns: [
          { heading: 'Field', cell: (item) => item.field },
          { heading: 'Why', cell: (item) => item.reason },
        ],
      })
    }
    ${
      outcome &&
      html`<h3>Enrollment outcome</h3>
        ${definitionList([
          ['Result', outcome.result],
          ...cardFacts(outcome),
          ['Valid until', text(outcome.valid_until)],
          ['Detail', text(outcome.detail)],
          ...(outcome.confirmation ? confirmationFacts(outcome.confirmation) : []),
        ])}`
    }`;
  },
};

/** Each case type's view; a type without one would not compile. */
export const CASE_TYPE_VIEWS: Record<CaseObjectType, CaseTypeView> = {
  benefit_verification: BENEFIT_VERIFICATION_VIEW as CaseTypeView,
  clinical_eligibility: CLINICAL_ELIGIBILITY_VIEW as CaseTypeView,
  prior_authorization: PRIOR_AUTHORIZATION_VIEW as CaseTypeView,
  patient_enrollment: PATIENT_ENROLLMENT_VIEW as CaseTypeView,
};

const AUTHORIZATION_LABELS: Record<PatientAuthorization['type'], string> = {
  hipaa_authorization: 'HIPAA authorization',
  program_consent: 'Program consent',
};

function authorizationFact(authorization: PatientAuthorization | null | undefined): Html | string {
  if (!authorization) return 'None recorded';
  const { type, attested_by: attester, attested_at: attestedAt, form_version: formVersion } = authorization;
  const signer = `${attester.name} (${attester.relationship === 'patient' ? 'the patient' : 'a legal representative'})`;
  return html`${AUTHORIZATION_LABELS[type]}, form <code>${formVersion}</code>, signed by ${signer} on
    ${moment(attestedAt)}`;
}

/** Card identifiers belong to copay cards: shown when the outcome has any, left out for other programs. */
function cardFacts(outcome: EnrollmentOutcome): Fact[] {
  const { member_id: memberId, bin, pcn, group } = outcome;
  if ([memberId, bin, pcn, group].every((value) => value === null)) return [];
  return [
    ['Member id', text(memberId)],
    ['BIN / PCN / group', `${text(bin)} / ${text(pcn)} / ${text(group)}`],
  ];
}

const CONFIRMATION_LABELS: Record<EnrollmentConfirmation['kind'], string> = {
  copay_card: 'Copay card issued',
  free_drug_fulfillment: 'Free drug from the program pharmacy',
  bridge_supply_fulfillment: 'Bridge supply while the insurer decides',
  quick_start_fulfillment: 'Quick-start supply',
  education_enrollment: 'Enrolled in the education program',
  adherence_enrollment: 'Enrolled in the adherence program',
};

const SHIP_TO_LABELS = { patient_home: "Patient's home", prescriber_office: "Prescriber's office" } as const;

const REMINDER_SCHEDULE_LABELS = {
  before_each_refill: 'Before each refill',
  weekly_dose_day: 'On each weekly dose day',
} as const;

/** What the program confirmed, by kind; a copay card's identifiers are already among the outcome's facts. */
function confirmationFacts(confirmation: EnrollmentConfirmation): Fact[] {
  const kind: Fact = ['Confirmation', CONFIRMATION_LABELS[confirmation.kind]];
  switch (confirmation.kind) {
    case 'copay_card':
      return [kind];
    case 'free_drug_fulfillment':
    case 'bridge_supply_fulfillment':
    case 'quick_start_fulfillment': {
      const shipment: Fact[] = [
        kind,
        ['Pharmacy', confirmation.pharmacy_name],
        ['Ships to', SHIP_TO_LABELS[confirmation.ship_to]],
        ['First shipment expected by', confirmation.first_shipment_expected_by],
      ];
      if (confirmation.kind === 'free_drug_fulfillment') {
        return [
          ...shipment,
          ['Supply per shipment', `${confirmation.days_supply_per_shipment} days`],
          ['Re-verification due', confirmation.reverification_due_on],
        ];
      }
      if (confirmation.kind === 'bridge_supply_fulfillment') {
        return [...shipment, ['Coverage rechecked on', confirmation.coverage_recheck_on]];
      }
      return [...shipment, ['Fills approved', String(confirmation.fills_approved)]];
    }
    case 'education_enrollment':
      return [
        kind,
        ['Contact channels', confirmation.contact_channels.join(', ')],
        ['Support hours', confirmation.support_hours],
        ['First outreach by', confirmation.first_outreach_by],
      ];
    case 'adherence_enrollment':
      return [
        kind,
        ['Reminder channels', confirmation.reminder_channels.join(', ')],
        ['Reminder schedule', REMINDER_SCHEDULE_LABELS[confirmation.reminder_schedule]],
        ['First outreach by', confirmation.first_outreach_by],
      ];
  }
}
