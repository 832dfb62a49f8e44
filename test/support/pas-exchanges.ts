import type {
  PayerPriorAuthAnswer,
  PriorAuthExchangeInput,
  PriorAuthInformationInput,
  PriorAuthInquiryInput,
} from '../../domain/payers/prior-authorization-exchange';

/** A medical-benefit PA (Remicade, billed under HCPCS J1745) for a synthetic patient. */
export function remicadeExchange(overrides: Partial<PriorAuthExchangeInput> = {}): PriorAuthExchangeInput {
  return {
    caseId: 'pa_01jq0000000000000000000000',
    accountId: 'acct_01jq0000000000000000000000',
    livemode: true,
    urgency: 'standard',
    plan: null,
    criteria: [],
    request: {
      patient: {
        internal_id: 'patient-0001',
        first_name: 'Elowen',
        last_name: 'Testperson',
        gender: 'female',
        date_of_birth: '1975-03-02',
        address: {
          street: '4 Example Road',
          city: 'Portland',
          state_province: 'OR',
          zip_postal_code: '97201',
          country: 'US',
        },
      },
      diagnoses: [{ code: 'K50.90', description: 'Crohn disease, unspecified' }],
      prescription: {
        drug_name: 'Remicade 100 mg vial',
        quantity: 4,
        days_supply: 56,
        directions: '5 mg/kg IV',
      },
      provider: { npi: '1234567893', first_name: 'Amadou', last_name: 'Reviewsworth', phone: '5035550100' },
      insurance: [],
      insurance_content: {
        payer: 'Sandbox Health Plan',
        payer_id: 'SBX01',
        member_id: 'ZZLIVE0001',
        group_number: 'GRP100',
      },
      evidence: [
        {
          title: 'Colonoscopy report',
          date_created: '2026-10-01T09:30:00Z',
          content: { finding: 'ileitis' },
        },
      ],
      questionnaires: [],
      visit_notes: [{ content: 'Failed azathioprine for 6 months.', created_at: '2026-10-02T10:00:00Z' }],
      is_training_data: false,
      urgency: 'standard',
      mock_result: null,
    },
    ...overrides,
  };
}

export function remicadeInquiry(overrides: Partial<PriorAuthInquiryInput> = {}): PriorAuthInquiryInput {
  return { ...remicadeExchange(), payer_reference: 'PAYER-REF-0001', inquiriesSoFar: 0, ...overrides };
}

export function remicadeInformation(
  overrides: Partial<PriorAuthInformationInput> = {},
): PriorAuthInformationInput {
  return {
    ...remicadeExchange(),
    payer_reference: 'PAYER-REF-0001',
    answers: [{ question_id: 'q-tb-screen', answer: 'Negative QuantiFERON on 2026-09-15.' }],
    ...overrides,
  };
}

/** One answer of every kind a payer gives, for round trips through the PAS path. */
export const EVERY_KIND_OF_ANSWER: Record<string, PayerPriorAuthAnswer> = {
  approved: {
    kind: 'determined',
    payer_reference: 'PAYER-REF-0001',
    determination: {
      result: 'approved',
      detail_code: 'approval',
      detail: 'All criteria met.',
      decided_at: '2026-11-25T12:00:00.000Z',
      authorization_number: 'AUTH-0001',
      approved_quantity: 4,
      authorization_start_date: '2026-11-25',
      authorization_expiration: '2027-05-24',
    },
  },
  partially_approved: {
    kind: 'determined',
    payer_reference: 'PAYER-REF-0001',
    determination: {
      result: 'partially_approved',
      detail_code: 'quantity_reduced',
      detail: 'Approved for 2 of the 4 vials requested.',
      decided_at: '2026-11-25T12:00:00.000Z',
      authorization_number: 'AUTH-0002',
      approved_quantity: 2,
      authorization_start_date: '2026-11-25',
      authorization_expiration: '2027-02-23',
    },
  },
  denied: {
    kind: 'determined',
    payer_reference: 'PAYER-REF-0001',
    determination: {
      result: 'denied',
      detail_code: 'step_therapy_criteria_not_met',
      detail: 'Step therapy with a conventional agent is not documented.',
      decided_at: '2026-11-25T12:00:00.000Z',
      authorization_number: null,
      approved_quantity: null,
      authorization_start_date: null,
      authorization_expiration: null,
    },
  },
  other: {
    kind: 'determined',
    payer_reference: 'PAYER-REF-0001',
    determination: {
      result: 'other',
      detail_code: 'duplicate_request',
      detail: 'A request for this member and drug is already open.',
      decided_at: '2026-11-25T12:00:00.000Z',
      authorization_number: null,
      approved_quantity: null,
      authorization_start_date: null,
      authorization_expiration: null,
    },
  },
  pended: { kind: 'pended', payer_reference: 'PAYER-REF-0001', information_request: null },
  information_requested: {
    kind: 'pended',
    payer_reference: 'PAYER-REF-0001',
    information_request: {
      kind: 'information_requested',
      questions: [
        { id: 'q-tb-screen', text: 'Has the patient had a negative TB screen in the last 12 months?' },
        { id: 'q-weight', text: 'What is the patient weight in kg?' },
      ],
      due_at: '2026-12-09T12:00:00.000Z',
    },
  },
  not_submitted: {
    kind: 'not_submitted',
    payer_reference: null,
    reason_code: 'member_not_found',
    reason: 'The payer found no member with this id.',
  },
  not_submitted_with_reference: {
    kind: 'not_submitted',
    payer_reference: 'PAYER-REF-0009',
    reason_code: 'not_accepted',
    reason: 'The payer does not take prior authorization for this item.',
  },
};
