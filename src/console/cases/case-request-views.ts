import type {
  CasePatient,
  CaseRecord,
  Diagnosis,
  InsuranceContent,
  Provider,
} from '../../../domain/cases/case-model';
import type { Prescription } from '../../../domain/cases/prior-authorization-request';
import { CARD_FIELD_THRESHOLDS } from '../../../domain/payers/card-field-shapes';
import type { CardField, CardUnreadReason, InsuranceCardView } from '../../../domain/payers/card-fields';
import type { Disagreement } from '../../../domain/payers/insurance-card';
import { badge, card, definitionList, emptyState, Fact, notice, table } from '../views';
import { Html, html } from '../views/html';

/** The parts of a request a reviewer reads, whichever case type holds them. */
interface ReadableRequest {
  patient?: CasePatient;
  provider?: Provider;
  prescription?: Prescription;
  drugs?: Array<{ name?: string; ndc?: string; dosage?: string; quantity: number }>;
  diagnoses?: Diagnosis[];
  insurance_content?: InsuranceContent | null;
}

/** A value this much surer than its field's threshold is not flagged for a second look. */
const SURE_MARGIN = 0.08;

const CARD_FIELD_LABELS: Record<CardField, string> = {
  payer_name: 'Payer',
  plan_name: 'Plan',
  member_name: 'Member name',
  member_id: 'Member id',
  group_number: 'Group number',
  rx_bin: 'RxBIN',
  rx_pcn: 'RxPCN',
  rx_group: 'RxGroup',
  client_name: 'Employer',
  effective_date: 'Effective date',
  payer_id: 'Payer id',
  medicare_beneficiary_id: 'Medicare Beneficiary Identifier',
  medicaid_id: 'Medicaid id',
};

const SOURCE_LABELS = {
  discrete: 'sent as data',
  card: 'read from the card',
  reviewer: 'confirmed by a reviewer',
};

/** What a reviewer triages a queued case by: who, which drug, which payer; null where the case does not say. */
export interface CaseTriage {
  patient: string | null;
  drug: string | null;
  payer: string | null;
}

/**
 * The patient, drug and payer of a case, for a row of the review queue: the payer the case resolved,
 * else the one its card or data named.
 */
export function triageOf(record: CaseRecord): CaseTriage {
  const { request, plan, insurance_card } = record as CaseRecord & {
    request?: ReadableRequest;
    plan?: { payer_name: string } | null;
  };
  const patient = request?.patient;
  const prescription = request?.prescription;
  const drug = prescription?.drug_name ?? prescription?.ndc ?? request?.drugs?.[0]?.name ?? null;
  return {
    patient: patient ? `${patient.last_name}, ${patient.first_name} (born ${patient.date_of_birth})` : null,
    drug: drug && prescription?.strength ? `${drug} ${prescription.strength}` : drug,
    payer: plan?.payer_name ?? insurance_card?.used.payer?.value ?? request?.insurance_content?.payer ?? null,
  };
}

/**
 * The request as a reviewer reads it: who the patient is, what is prescribed for which diagnoses, by
 * whom, and the insurance sent as data. Shown to the account's people only, as the API shows it.
 */
export function requestView(record: CaseRecord): Html {
  const request = (record as CaseRecord & { request?: ReadableRequest }).request;
  if (!request) return html``;
  const { patient, provider, prescription, drugs, diagnoses, insurance_content: insurance } = request;
  const entries: Fact[] = [];
  if (patient) {
    entries.push(
      ['Patient', `${patient.first_name} ${patient.last_name}`],
      ['Date of birth', patient.date_of_birth],
    );
  }
  if (prescription) {
    entries.push([
      'Prescription',
      [
        prescription.drug_name ?? prescription.ndc,
        prescription.strength,
        prescription.dosage,
        `quantity ${prescription.quantity}`,
        prescription.days_supply ? `${prescription.days_supply} days` : undefined,
      ]
        .filter(Boolean)
        .join(', '),
    ]);
  }
  if (drugs?.length) {
    entries.push([
      'Drugs',
      drugs
        .map((drug) =>
          [drug.name ?? drug.ndc, drug.dosage, `quantity ${drug.quantity}`].filter(Boolean).join(', '),
        )
        .join('; '),
    ]);
  }
  if (diagnoses?.length) {
    entries.push([
      'Diagnoses',
      html`${diagnoses.map(
        (diagnosis) =>
          html`<code>${diagnosis.code}</code
            >${diagnosis.description ? ` ${diagnosis.description}` : ''}<br />`,
      )}`,
    ]);
  }
  if (provider)
    entries.push(['Prescriber', `${provider.first_name} ${provider.last_name}, NPI ${provider.npi}`]);
  if (insurance) {
    entries.push([
      'Insurance (sent as data)',
      [
        insurance.payer,
        `member ${insurance.member_id}`,
        insurance.group_number && `group ${insurance.group_number}`,
        insurance.rx_bin && `BIN ${insurance.rx_bin}`,
        insurance.rx_pcn && `PCN ${insurance.rx_pcn}`,
      ]
        .filter(Boolean)
        .join(', '),
    ]);
  }
  return card({ id: 'request-heading', heading: 'Request', body: definitionList(entries) });
}

/** Why a card field was not read, as a reviewer reads it beside the field (docs/decisions.md#card-readers). */
const UNREAD_REASON_LABELS: Readonly<Record<CardUnreadReason, string>> = {
  not_found: 'not found',
  below_threshold: 'read by one reader only, or unsure',
  readers_disagree: 'the two readers differ',
  glare: 'glare on the photo covers it',
};

/**
 * What the case read from the insurance card: each field with its confidence, those close to their
 * threshold or placed by their shape flagged, those not read named with why, the value used for each
 * with its source, conflicts, and where the card's two readers read a field differently.
 */
export function insuranceCardSection(
  reading: InsuranceCardView | null | undefined,
  disagreements: readonly Disagreement[] = [],
): Html {
  if (!reading) return html``;
  const read = Object.entries(reading.scanned) as Array<
    [CardField, { value: string; confidence: number; inferred?: true }]
  >;
  return card({
    id: 'insurance-card-heading',
    heading: 'Insurance card',
    body: html`${reading.error ? notice({ kind: 'error', body: reading.error.message, role: 'status' }) : ''}
    ${table({
      caption: 'Fields read from the card',
      rows: read,
      empty: emptyState('No card field could be read with confidence.'),
      columns: [
        { heading: 'Field', cell: ([field]) => CARD_FIELD_LABELS[field] },
        {
          heading: 'Value',
          cell: ([, { value, inferred }]) =>
            inferred
              ? html`<code>${value}</code> ${badge('Placed by its shape, label unread', 'warn')}`
              : html`<code>${value}</code>`,
        },
        {
          heading: 'Confidence',
          cell: ([field, { confidence }]) =>
            html`${Math.round(confidence * 100)} %
            ${confidence < CARD_FIELD_THRESHOLDS[field] + SURE_MARGIN ? badge('Check', 'warn') : ''}`,
        },
      ],
    })}
    ${definitionList([
      [
        'Not read',
        reading.unread
          .map((field) => {
            const reason = reading.unread_reasons?.[field];
            return reason
              ? `${CARD_FIELD_LABELS[field]} (${UNREAD_REASON_LABELS[reason]})`
              : CARD_FIELD_LABELS[field];
          })
          .join(', ') || '—',
      ],
      [
        'Other cards',
        reading.other_cards
          .map((other) => `${other.payer_name ?? 'payer not read'}, member ${other.member_id ?? 'not read'}`)
          .join('; ') || '—',
      ],
      [
        'Used',
        Object.entries(reading.used)
          .map(([field, used]) => `${field}: ${used.value} (${SOURCE_LABELS[used.source]})`)
          .join('; ') || '—',
      ],
    ])}
    ${
      disagreements.length > 0 &&
      notice({
        kind: 'error',
        body: html`${disagreements.map(
          (disagreement) =>
            html`The card's two readers read ${CARD_FIELD_LABELS[disagreement.field]} differently:
              <code>${disagreement.readings[0]}</code> and <code>${disagreement.readings[1]}</code>; neither
              is used. Compare them with the card's image.<br />`,
        )}`,
      })
    }
    ${
      reading.conflicts.length > 0 &&
      notice({
        kind: 'error',
        body: html`${reading.conflicts.map(
          (conflict) =>
            html`The card reads ${conflict.field} <code>${conflict.card}</code>, the data sent
              <code>${conflict.discrete}</code>; the data sent is used.<br />`,
        )}`,
      })
    }`,
  });
}
