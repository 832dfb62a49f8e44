import type { PatientEnrollmentCase } from '../../../../domain/cases/patient-enrollment';
import type { EnrollmentConfirmation } from '../../../../domain/programs/confirmation-model';
import type { EnrollmentOutcome } from '../../../../domain/programs/enrollment-model';
import type { PatientAuthorization } from '../../../../domain/programs/patient-authorization';
import { definitionList, Fact, table, Html, html, moment, text } from '../../../console/views';
import { CaseConsole, CaseTypeView, DecisionForm, nest } from '../../case-console';
import { ENROLLMENT_RESULTS } from './patient-enrollment.dto';

const PATIENT_ENROLLMENT_VIEW: CaseTypeView<PatientEnrollmentCase> = {
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

/** The information a program asked for, and the program's decision recorded by hand. */
const PATIENT_ENROLLMENT_DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'information',
    status: 'awaiting_review',
    heading: 'Send the information the program asked for',
    fields: [
      { name: 'patient.date_of_birth', label: 'Patient date of birth', kind: 'date' },
      { name: 'prescription.drug_name', label: 'Prescription drug name', kind: 'text' },
      { name: 'prescription.dosage', label: 'Prescription dosage', kind: 'text' },
      { name: 'prescription.directions', label: 'Prescription directions', kind: 'text' },
      { name: 'evidence.type', label: 'Evidence type', kind: 'text' },
      { name: 'evidence.date_created', label: 'Evidence date', kind: 'date' },
      { name: 'evidence.content', label: 'Evidence content (JSON object)', kind: 'textarea' },
    ],
    buttons: [{ label: 'Send information', kind: 'primary' }],
    body: (values) => {
      const { evidence, ...rest } = nest(values) as { evidence?: Record<string, string> };
      if (!evidence) return rest;
      const { content, date_created: day, ...item } = evidence;
      return {
        ...rest,
        evidence: [
          {
            ...item,
            // The API takes a date-time; a date input gives the day, which starts at midnight.
            ...(day !== undefined && {
              date_created: /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00` : day,
            }),
            ...(content !== undefined && { content: parsedJson(content) }),
          },
        ],
      };
    },
  },
  {
    decision: 'outcome',
    status: 'awaiting_outcome',
    heading: "Record the program's decision",
    fields: [
      { name: 'result', label: 'Result', kind: 'select', options: ENROLLMENT_RESULTS },
      { name: 'member_id', label: 'Member id (copay cards only)', kind: 'text' },
      { name: 'bin', label: 'BIN (copay cards only)', kind: 'text' },
      { name: 'pcn', label: 'PCN (copay cards only)', kind: 'text' },
      { name: 'group', label: 'Group (copay cards only)', kind: 'text' },
      { name: 'valid_until', label: 'Valid until', kind: 'date' },
      { name: 'detail', label: 'Detail', kind: 'textarea' },
    ],
    buttons: [{ label: 'Record program decision', kind: 'primary' }],
    body: (values) => nest(values),
  },
];

/** Enrollments in the console: the program's outcome, and the information and outcome forms. */
export const PATIENT_ENROLLMENT_CONSOLE: CaseConsole<PatientEnrollmentCase> = {
  section: { segment: 'enrollments', title: 'Enrollments', singular: 'Enrollment' },
  view: PATIENT_ENROLLMENT_VIEW,
  decisionForms: PATIENT_ENROLLMENT_DECISION_FORMS,
};

/** JSON as typed; text that is not JSON stays text, which the API's validation then names. */
function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
