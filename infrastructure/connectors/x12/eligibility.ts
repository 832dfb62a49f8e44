import { createHash } from 'node:crypto';

import type { Provider } from '../../../domain/cases/case-model';
import type { Clearinghouse } from '../../../domain/payers/clearinghouse';
import type {
  EligibilityInquiry,
  InquiryPerson,
  InterchangeEnvelope,
} from '../../../domain/payers/eligibility';
import type { BenefitsCheck } from '../../../domain/payers/payer-connector';
import { ConnectorError } from '../../../domain/failures';
import { writeEligibilityInquiry } from './eligibility-inquiry';
import { eligibilityOutcome } from './eligibility-outcome';
import { readEligibilityResponse } from './eligibility-response';

/** Health benefit plan coverage (30) and pharmacy (88): the plan's answer and its drug benefit. */
export const INQUIRY_SERVICE_TYPES = ['30', '88'];

/** Who the 270 asks about, from the benefit verification request. */
export interface EligibilityQuestion {
  /** Opaque and free of PHI: it travels to the clearinghouse as the trace number. */
  traceNumber: string;
  payer: { id: string; name: string };
  provider: Pick<Provider, 'npi' | 'first_name' | 'last_name'> & { taxonomy_code?: string };
  patient: { first_name: string; last_name: string; date_of_birth: string; gender?: string };
  memberId: string;
  groupNumber?: string;
  /** Present when the patient is a dependent on someone else's plan. */
  subscriber?: {
    first_name: string;
    last_name: string;
    date_of_birth: string;
    relationship: 'spouse' | 'child' | 'other';
  };
}

/**
 * Asks eligibility the X12 way: builds the 270, sends it through the clearinghouse, reads the 271
 * and maps it to the result. The per-drug part is not a 271's to answer; callers add it.
 */
export async function checkEligibilityOverX12(
  question: EligibilityQuestion,
  route: { clearinghouse: Clearinghouse; envelope: InterchangeEnvelope; asOf: string },
): Promise<BenefitsCheck> {
  const inquiry = inquiryFor(question, route.asOf);
  const answer = await route.clearinghouse.exchange(writeEligibilityInquiry(inquiry, route.envelope));
  const response = readEligibilityResponse(answer);
  const traces = response.trace_numbers ?? (response.trace_number === null ? [] : [response.trace_number]);
  if (traces.length > 0 && !traces.includes(inquiry.traceNumber)) {
    throw new ConnectorError('The 271 answers another inquiry: its trace number is not the one sent.', {
      transient: false,
    });
  }
  const mapped = eligibilityOutcome(response, route.asOf);
  return mapped.kind === 'completed'
    ? { kind: 'completed', outcome: { ...mapped.outcome, drugs: [] } }
    : mapped;
}

function inquiryFor(question: EligibilityQuestion, asOf: string): EligibilityInquiry {
  const patient: InquiryPerson = person(question.patient);
  const { subscriber } = question;
  return {
    traceNumber: question.traceNumber,
    payer: question.payer,
    provider: {
      npi: question.provider.npi,
      firstName: question.provider.first_name,
      lastName: question.provider.last_name,
      taxonomyCode: question.provider.taxonomy_code,
    },
    subscriber: {
      ...(subscriber ? person(subscriber) : patient),
      memberId: question.memberId,
      groupNumber: question.groupNumber,
    },
    dependent: subscriber ? { ...patient, relationship: subscriber.relationship } : undefined,
    serviceTypeCodes: INQUIRY_SERVICE_TYPES,
    dateOfService: asOf,
  };
}

function person(source: {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  gender?: string;
}): InquiryPerson {
  const gender = source.gender === 'male' || source.gender === 'female' ? source.gender : undefined;
  return {
    firstName: source.first_name,
    lastName: source.last_name,
    dateOfBirth: source.date_of_birth,
    gender,
  };
}

/**
 * ISA13 for the sandbox, where no counter is kept: derived from the trace number, so a retried
 * activity sends the same interchange again, as a clearinghouse's duplicate check expects.
 */
export function sandboxControlNumber(traceNumber: string): number {
  const digest = createHash('sha256').update(traceNumber).digest();
  return (digest.readUInt32BE(0) % 999_999_999) + 1;
}
