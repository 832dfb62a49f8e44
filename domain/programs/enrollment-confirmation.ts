/**
 * Issuing the confirmation a program's terms give: a copay card's claim identifiers, a free-drug
 * shipment, or an education or adherence program's first contact. Pure: dates are computed from the
 * enrollment date given, never the clock.
 */
import { DAY_MS } from '../durations';
import type { EnrollmentConfirmation, FulfillmentConfirmation } from './confirmation-model';
import type { EnrollmentOutcome } from './enrollment-model';
import type { ProgramConfirmationTerms } from './program-model';

function toUtc(date: string): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) throw new RangeError('enrolledOn must be a calendar date YYYY-MM-DD');
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

function calendarDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return calendarDate(new Date(toUtc(date).getTime() + days * DAY_MS));
}

/**
 * The day before the same date `months` later; when that month has no such date (31 January plus
 * one month), the period ends on its last day.
 */
function lastDayOfMonths(date: string, months: number): string {
  const start = toUtc(date);
  const day = start.getUTCDate();
  const target = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, 1));
  const daysInTarget = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  if (day > daysInTarget) {
    target.setUTCDate(daysInTarget);
    return calendarDate(target);
  }
  target.setUTCDate(day);
  return addDays(calendarDate(target), -1);
}

/**
 * The confirmation a program issues on `enrolledOn` under its terms. `memberId` is used by copay
 * cards only: no other kind of program hands out pharmacy claim identifiers.
 */
export function confirmEnrollment(
  terms: ProgramConfirmationTerms,
  enrollment: { enrolledOn: string; memberId: string },
): EnrollmentConfirmation {
  const { enrolledOn } = enrollment;
  const validUntil = lastDayOfMonths(enrolledOn, terms.valid_months);
  switch (terms.kind) {
    case 'copay_card':
      return {
        kind: terms.kind,
        member_id: enrollment.memberId,
        bin: terms.bin,
        pcn: terms.pcn,
        group: terms.group,
        valid_until: validUntil,
      };
    case 'free_drug_fulfillment':
      return {
        ...shipment(terms, enrolledOn),
        kind: terms.kind,
        days_supply_per_shipment: terms.days_supply_per_shipment,
        reverification_due_on: addDays(validUntil, -terms.reverify_days_before_end),
        valid_until: validUntil,
      };
    case 'bridge_supply_fulfillment':
      return {
        ...shipment(terms, enrolledOn),
        kind: terms.kind,
        coverage_recheck_on: addDays(enrolledOn, terms.coverage_recheck_every_days),
        valid_until: validUntil,
      };
    case 'quick_start_fulfillment':
      return {
        ...shipment(terms, enrolledOn),
        kind: terms.kind,
        fills_approved: terms.fills,
        valid_until: validUntil,
      };
    case 'education_enrollment':
      return {
        kind: terms.kind,
        contact_channels: terms.contact_channels,
        support_hours: terms.support_hours,
        first_outreach_by: addDays(enrolledOn, terms.first_outreach_within_days),
        valid_until: validUntil,
      };
    case 'adherence_enrollment':
      return {
        kind: terms.kind,
        reminder_channels: terms.reminder_channels,
        reminder_schedule: terms.reminder_schedule,
        first_outreach_by: addDays(enrolledOn, terms.first_outreach_within_days),
        valid_until: validUntil,
      };
  }
}

function shipment(
  terms: Extract<ProgramConfirmationTerms, { pharmacy_name: string }>,
  enrolledOn: string,
): Omit<FulfillmentConfirmation, 'valid_until'> {
  return {
    pharmacy_name: terms.pharmacy_name,
    ship_to: terms.ship_to,
    first_shipment_expected_by: addDays(enrolledOn, terms.first_shipment_within_days),
  };
}

const SHIP_TO_WORDS: Record<FulfillmentConfirmation['ship_to'], string> = {
  patient_home: "the patient's home",
  prescriber_office: "the prescriber's office",
};

/** One sentence for the outcome's `detail`; it names dates and the program's channels, never the patient. */
export function confirmationDetail(confirmation: EnrollmentConfirmation): string {
  switch (confirmation.kind) {
    case 'copay_card':
      return `Copay card issued; valid until ${confirmation.valid_until}.`;
    case 'free_drug_fulfillment':
    case 'bridge_supply_fulfillment':
    case 'quick_start_fulfillment':
      return (
        `Approved for free supply from ${confirmation.pharmacy_name}; the first shipment to ` +
        `${SHIP_TO_WORDS[confirmation.ship_to]} is expected by ${confirmation.first_shipment_expected_by}.`
      );
    case 'education_enrollment':
    case 'adherence_enrollment':
      return `Enrolled; the program first reaches out by ${confirmation.first_outreach_by}.`;
  }
}

/** An enrolled outcome: the card identifiers at the top level are a copay card's, null for every other kind. */
export function enrolledOutcome(programId: string, confirmation: EnrollmentConfirmation): EnrollmentOutcome {
  const card = confirmation.kind === 'copay_card' ? confirmation : undefined;
  return {
    result: 'enrolled',
    program_id: programId,
    member_id: card?.member_id ?? null,
    bin: card?.bin ?? null,
    pcn: card?.pcn ?? null,
    group: card?.group ?? null,
    valid_until: confirmation.valid_until,
    detail: confirmationDetail(confirmation),
    confirmation,
  };
}
