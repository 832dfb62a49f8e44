import type { BenefitVerificationCase } from '../../../../domain/cases/benefit-verification';
import { definitionList, table, html, cents, text, yesNo } from '../../../console/views';
import {
  CaseConsole,
  CaseTypeView,
  DecisionForm,
  DecisionRows,
  filledRows,
  nest,
  NumericFields,
  numbersOf,
} from '../../case-console';
import {
  BENEFIT_VERIFICATION_STATUSES,
  COVERAGE_STATUSES,
  MANUAL_DRUG_COVERAGES,
  MAX_DRUGS,
  PRIOR_AUTH_REQUIREMENTS,
} from './benefit-verification.dto';

const BENEFIT_VERIFICATION_VIEW: CaseTypeView<BenefitVerificationCase> = {
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

const BENEFIT_VERIFICATION_NUMBERS: NumericFields = {
  dollars: new Set([
    'deductible.total_cents',
    'deductible.met_cents',
    'out_of_pocket.total_cents',
    'out_of_pocket.met_cents',
    'copay.amount_cents',
  ]),
  counts: new Set([
    'copay.supply_duration_days',
    'coinsurance_percent',
    'quantity_limit.quantity',
    'quantity_limit.period_days',
  ]),
};

const MANUAL_DRUG_ROWS: DecisionRows = {
  name: 'drugs',
  caption: 'Per-drug results (leave coverage empty for a drug not verified)',
  keyHeading: 'Drug',
  keyField: 'drug',
  maxRows: MAX_DRUGS,
  keysOf: (record) =>
    (record as BenefitVerificationCase).request.drugs.map((drug) => drug.name ?? drug.ndc ?? ''),
  fields: [
    { name: 'coverage', label: 'Coverage', kind: 'select', options: ['', ...MANUAL_DRUG_COVERAGES] },
    {
      name: 'prior_authorization_required',
      label: 'Prior authorization',
      kind: 'select',
      options: PRIOR_AUTH_REQUIREMENTS,
    },
    { name: 'copay.amount_cents', label: 'Copay ($)', kind: 'text' },
    { name: 'copay.supply_duration_days', label: 'Copay supply (days)', kind: 'text' },
    { name: 'coinsurance_percent', label: 'Coinsurance (%)', kind: 'text' },
    { name: 'quantity_limit.quantity', label: 'Quantity limit', kind: 'text' },
    { name: 'quantity_limit.period_days', label: 'Limit period (days)', kind: 'text' },
    { name: 'notes', label: 'Notes', kind: 'text' },
  ],
};

/** A benefit verification a person completes by hand, after calling the plan. */
const BENEFIT_VERIFICATION_DECISION_FORMS: readonly DecisionForm[] = [
  {
    decision: 'outcome',
    status: 'awaiting_review',
    heading: 'Manual verification',
    fields: [
      {
        name: 'status',
        label: 'Verification result',
        kind: 'select',
        options: BENEFIT_VERIFICATION_STATUSES,
      },
      {
        name: 'coverage_status',
        label: 'Coverage status',
        kind: 'select',
        options: ['', ...COVERAGE_STATUSES],
      },
      { name: 'notes', label: 'Notes', kind: 'textarea' },
      { name: 'deductible.total_cents', label: 'Deductible total ($)', kind: 'text' },
      { name: 'deductible.met_cents', label: 'Deductible met ($)', kind: 'text' },
      { name: 'out_of_pocket.total_cents', label: 'Out-of-pocket total ($)', kind: 'text' },
      { name: 'out_of_pocket.met_cents', label: 'Out-of-pocket met ($)', kind: 'text' },
      { name: 'coverage_dates.start_date', label: 'Coverage start date', kind: 'date' },
      { name: 'coverage_dates.end_date', label: 'Coverage end date', kind: 'date' },
      // What the reviewer confirmed with the plan, for a card read wrong or not at all.
      { name: 'insurance.payer', label: 'Confirmed payer', kind: 'text' },
      { name: 'insurance.member_id', label: 'Confirmed member id', kind: 'text' },
      { name: 'insurance.group_number', label: 'Confirmed group number', kind: 'text' },
      { name: 'insurance.rx_bin', label: 'Confirmed RxBIN', kind: 'text' },
      { name: 'insurance.rx_pcn', label: 'Confirmed RxPCN', kind: 'text' },
      { name: 'insurance.rx_group', label: 'Confirmed RxGroup', kind: 'text' },
    ],
    rows: MANUAL_DRUG_ROWS,
    buttons: [{ label: 'Complete verification', kind: 'primary' }],
    body: (values) => {
      const { drugs, ...rest } = nest(numbersOf(values, BENEFIT_VERIFICATION_NUMBERS));
      // A row without a coverage was not verified: leaving it out records the drug as unknown.
      const rows = filledRows(drugs, 'coverage');
      return rows.length > 0 ? { ...rest, drugs: rows } : rest;
    },
  },
];

/** Benefit verifications in the console: their results, and the manual verification form. */
export const BENEFIT_VERIFICATION_CONSOLE: CaseConsole<BenefitVerificationCase> = {
  section: {
    segment: 'benefit-verifications',
    title: 'Benefit verifications',
    singular: 'Benefit verification',
  },
  view: BENEFIT_VERIFICATION_VIEW,
  decisionForms: BENEFIT_VERIFICATION_DECISION_FORMS,
};
