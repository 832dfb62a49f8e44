/**
 * Eligibility as X12 005010X279A1 carries it: what a 270 asks and what a 271 answers, in the
 * vocabulary of the benefit verification result. The X12 codec in infrastructure/connectors/x12
 * turns these into and out of wire format; nothing here knows about delimiters or segments.
 */

/**
 * A payer's id at a clearinghouse (the NM109 a 270 is addressed to): letters and digits, as
 * clearinghouses' payer lists give them. Requests and formularies name payers by it alike.
 */
export const CLEARINGHOUSE_PAYER_ID = /^[A-Za-z0-9]{2,20}$/;

/** The envelope of an outgoing interchange: who sends it to whom, numbered for acknowledgement. */
export interface InterchangeEnvelope {
  /** ISA06 / GS02: the submitter id the clearinghouse assigned to the account. */
  senderId: string;
  /** ISA08 / GS03: the clearinghouse's (or payer's) receiver id. */
  receiverId: string;
  /** ISA13 and GS06: 1–999999999, unique per interchange the account sends. */
  controlNumber: number;
  /** ISA15: production data or test data. */
  usage: 'production' | 'test';
  createdAt: Date;
}

/** A person named in a 270, as the payer knows them. */
export interface InquiryPerson {
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD. */
  dateOfBirth: string;
  gender?: 'male' | 'female';
}

/** One 270 inquiry: a subscriber, or a dependent of one, and the benefits asked about. */
export interface EligibilityInquiry {
  /** TRN02, echoed back in the 271: opaque and free of PHI (derived from the case id). */
  traceNumber: string;
  payer: { id: string; name: string };
  /** `taxonomyCode`: the provider's NUCC taxonomy, sent in 2100B's PRV segment when known. */
  provider: {
    npi: string;
    organizationName?: string;
    firstName?: string;
    lastName?: string;
    taxonomyCode?: string;
  };
  subscriber: InquiryPerson & { memberId: string; groupNumber?: string };
  /** Present when the patient is not the subscriber (loop 2000D). */
  dependent?: InquiryPerson & { relationship: 'spouse' | 'child' | 'other' };
  /** EQ01 service type codes, e.g. 30 (health benefit plan coverage) and 88 (pharmacy). */
  serviceTypeCodes: string[];
  /** YYYY-MM-DD, DTP*291 (plan date of service). */
  dateOfService: string;
}

/** Where in the 271 an AAA rejection sits, which says who could not be matched or served. */
export type RejectionLevel =
  'information_source' | 'information_receiver' | 'subscriber' | 'dependent' | 'inquiry';

/** An AAA segment: the payer could not answer, with its code list reason. */
export interface EligibilityRejection {
  level: RejectionLevel;
  /** AAA03, e.g. "72" invalid/missing subscriber id, "75" subscriber not found. */
  code: string;
  reason: string;
  /** AAA04, e.g. "C" please correct and resubmit; null when absent. */
  follow_up: string | null;
}

export type BenefitLevel =
  'individual' | 'family' | 'employee_and_spouse' | 'employee_and_children' | 'other';
export type NetworkIndicator = 'in_network' | 'out_of_network' | 'both' | 'not_applicable' | 'unknown';

/**
 * One EB row of a 271 that concerns the pharmacy benefit (service type 88 and its relatives 89–92),
 * as the payer sent it: coverage, a copay, a coinsurance or a limitation. Pharmacy deductibles and
 * out-of-pocket rows are accumulators, listed there with their service types.
 */
export interface PharmacyBenefit {
  service_type_code: string;
  service_type: string;
  /** EB01 in words: active_coverage, inactive, copayment, coinsurance, non_covered, limitations, … */
  benefit: string;
  level: BenefitLevel | null;
  network: NetworkIndicator | null;
  amount_cents: number | null;
  /** EB08 as a percentage: 0.2 on the wire is 20. */
  coinsurance_percent: number | null;
  /** EB11: whether the payer says prior authorization or certification is required. */
  prior_authorization_required: 'yes' | 'no' | 'unknown';
  messages: string[];
}

/** A deductible or out-of-pocket accumulator for one level, network and period. */
export interface BenefitAccumulator {
  kind: 'deductible' | 'out_of_pocket';
  level: BenefitLevel;
  network: NetworkIndicator;
  /** EB06 of the total: calendar_year, service_year, contract, lifetime, year_to_date, … */
  period: string;
  /** The service types the payer reported it for, e.g. ["30"] for the whole plan. */
  service_type_codes: string[];
  total_cents: number | null;
  remaining_cents: number | null;
  met_cents: number | null;
}

/** What a 271 says about the patient, read from the wire into the result's vocabulary. */
export interface EligibilityResponse {
  trace_number: string | null;
  /**
   * Every TRN*2 of the patient's loops, when there is more than one: the inquirer's echoed trace and
   * one a clearinghouse added, in either order.
   */
  trace_numbers?: string[];
  payer: { id: string | null; name: string | null };
  /** Active when an EB*1 (or a benefit row) covers the patient; inactive on EB*6; unknown otherwise. */
  coverage: 'active' | 'inactive' | 'unknown';
  plan_name: string | null;
  /** EB04 of the coverage row (e.g. MB Medicare Part B, MC Medicaid, C1 commercial); null when absent. */
  insurance_type_code: string | null;
  group_number: string | null;
  /** A vendor (NM1*VN) the payer names beside a benefit, as payers name their PBM; null when none. */
  pharmacy_benefit_manager_name: string | null;
  coverage_dates: { start_date: string | null; end_date: string | null } | null;
  pharmacy_benefits: PharmacyBenefit[];
  accumulators: BenefitAccumulator[];
  /** Every MSG of the patient's benefit rows, in the order the payer sent them. */
  messages: string[];
  rejections: EligibilityRejection[];
}
