import { enrollmentOutcomeIssues } from '../../domain/cases/patient-enrollment';
import { confirmEnrollment, enrolledOutcome } from '../../domain/programs/enrollment-confirmation';
import type { ProgramConfirmationTerms } from '../../domain/programs/program-model';

const ENROLLED_ON = '2026-11-25';
const MEMBER_ID = 'ZZ04211234567';
const PROGRAM_ID = 'prog_0000000000000000000000test';

const confirm = (terms: ProgramConfirmationTerms, enrolledOn = ENROLLED_ON) =>
  confirmEnrollment(terms, { enrolledOn, memberId: MEMBER_ID });

const COPAY: ProgramConfirmationTerms = {
  kind: 'copay_card',
  bin: '999911',
  pcn: 'SBXCPN1',
  group: 'SBXOZM24',
  valid_months: 24,
};
const FREE_DRUG: ProgramConfirmationTerms = {
  kind: 'free_drug_fulfillment',
  pharmacy_name: 'Test program pharmacy',
  ship_to: 'patient_home',
  first_shipment_within_days: 14,
  days_supply_per_shipment: 120,
  valid_months: 12,
  reverify_days_before_end: 30,
};

describe('confirming an enrollment', () => {
  it('issues a copay card with the program’s BIN, PCN and group and the patient’s member id', () => {
    expect(confirm(COPAY)).toEqual({
      kind: 'copay_card',
      member_id: MEMBER_ID,
      bin: '999911',
      pcn: 'SBXCPN1',
      group: 'SBXOZM24',
      valid_until: '2028-11-24',
    });
  });

  it('confirms free drug with its pharmacy, first shipment, and income re-verification before the year ends', () => {
    expect(confirm(FREE_DRUG)).toEqual({
      kind: 'free_drug_fulfillment',
      pharmacy_name: 'Test program pharmacy',
      ship_to: 'patient_home',
      first_shipment_expected_by: '2026-12-09',
      days_supply_per_shipment: 120,
      reverification_due_on: '2027-10-25',
      valid_until: '2027-11-24',
    });
  });

  it('confirms a bridge supply with the day the program asks the insurer again', () => {
    expect(
      confirm({
        kind: 'bridge_supply_fulfillment',
        pharmacy_name: 'Test program pharmacy',
        ship_to: 'patient_home',
        first_shipment_within_days: 5,
        coverage_recheck_every_days: 30,
        valid_months: 6,
      }),
    ).toEqual({
      kind: 'bridge_supply_fulfillment',
      pharmacy_name: 'Test program pharmacy',
      ship_to: 'patient_home',
      first_shipment_expected_by: '2026-11-30',
      coverage_recheck_on: '2026-12-25',
      valid_until: '2027-05-24',
    });
  });

  it('confirms a quick start with the number of free fills', () => {
    expect(
      confirm({
        kind: 'quick_start_fulfillment',
        pharmacy_name: 'Test program pharmacy',
        ship_to: 'prescriber_office',
        first_shipment_within_days: 3,
        fills: 2,
        valid_months: 2,
      }),
    ).toMatchObject({
      kind: 'quick_start_fulfillment',
      ship_to: 'prescriber_office',
      first_shipment_expected_by: '2026-11-28',
      fills_approved: 2,
      valid_until: '2027-01-24',
    });
  });

  it('confirms an education program with its contact channels and first outreach', () => {
    expect(
      confirm({
        kind: 'education_enrollment',
        contact_channels: ['phone', 'email'],
        support_hours: 'weekdays 9 am–5 pm ET',
        first_outreach_within_days: 5,
        valid_months: 12,
      }),
    ).toEqual({
      kind: 'education_enrollment',
      contact_channels: ['phone', 'email'],
      support_hours: 'weekdays 9 am–5 pm ET',
      first_outreach_by: '2026-11-30',
      valid_until: '2027-11-24',
    });
  });

  it('confirms an adherence program with its reminder channels and schedule', () => {
    expect(
      confirm({
        kind: 'adherence_enrollment',
        reminder_channels: ['text'],
        reminder_schedule: 'weekly_dose_day',
        first_outreach_within_days: 3,
        valid_months: 12,
      }),
    ).toEqual({
      kind: 'adherence_enrollment',
      reminder_channels: ['text'],
      reminder_schedule: 'weekly_dose_day',
      first_outreach_by: '2026-11-28',
      valid_until: '2027-11-24',
    });
  });

  it('ends an enrollment the day before the same date months later', () => {
    expect(confirm(COPAY, '2026-01-31')).toMatchObject({ valid_until: '2028-01-30' });
  });

  it('ends an enrollment on the last day of a month that lacks its start date', () => {
    expect(confirm({ ...COPAY, valid_months: 1 }, '2026-01-31')).toMatchObject({ valid_until: '2026-02-28' });
  });
});

describe('the outcome of a confirmed enrollment', () => {
  it('carries a copay card’s identifiers at the top level', () => {
    expect(enrolledOutcome(PROGRAM_ID, confirm(COPAY))).toMatchObject({
      result: 'enrolled',
      program_id: PROGRAM_ID,
      member_id: MEMBER_ID,
      bin: '999911',
      pcn: 'SBXCPN1',
      group: 'SBXOZM24',
      valid_until: '2028-11-24',
      confirmation: { kind: 'copay_card' },
    });
  });

  it('has no card identifiers for any other kind, and says what happens next', () => {
    expect(enrolledOutcome(PROGRAM_ID, confirm(FREE_DRUG))).toEqual({
      result: 'enrolled',
      program_id: PROGRAM_ID,
      member_id: null,
      bin: null,
      pcn: null,
      group: null,
      valid_until: '2027-11-24',
      detail:
        "Approved for free supply from Test program pharmacy; the first shipment to the patient's home is expected by 2026-12-09.",
      confirmation: confirm(FREE_DRUG),
    });
  });
});

describe('checking an outcome a reviewer records', () => {
  it('needs the member id when a copay program enrolls the patient', () => {
    expect(enrollmentOutcomeIssues('copay_card', { result: 'enrolled' })).toEqual([
      { field: 'member_id', issue: 'is required when a copay program enrolls the patient' },
    ]);
    expect(enrollmentOutcomeIssues('copay_card', { result: 'denied' })).toEqual([]);
  });

  it('refuses every card identifier for a program that is not a copay program', () => {
    const issues = enrollmentOutcomeIssues('patient_assistance', {
      result: 'enrolled',
      member_id: 'ZZM1',
      bin: '999911',
      pcn: 'SBXCPN1',
      group: 'G1',
    });
    expect(issues.map((issue) => issue.field)).toEqual(['member_id', 'bin', 'pcn', 'group']);
  });

  it('accepts an enrollment in a program that is not a copay program without card identifiers', () => {
    expect(enrollmentOutcomeIssues('education', { result: 'enrolled', valid_until: '2027-12-31' })).toEqual(
      [],
    );
  });

  it('accepts card identifiers given as null for a program that is not a copay program', () => {
    expect(
      enrollmentOutcomeIssues('patient_assistance', {
        result: 'enrolled',
        member_id: null,
        bin: null,
        pcn: null,
        group: null,
      }),
    ).toEqual([]);
  });
});
