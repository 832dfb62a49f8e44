import type {
  CasePatient,
  CaseRecord,
  Diagnosis,
  InsuranceContent,
  Prescription,
  Provider,
} from '../../../domain/cases/case-model';
import type { UnreadEvidence } from '../../../domain/clinical/clinical-model';
import type { CriterionAnswer } from '../../../domain/payers/payer-connector';
import { CARD_FIELD_THRESHOLDS } from '../../../domain/payers/insurance-card';
import type { CardField } from '../../../domain/payers/card-fields';
import type { InsuranceCardView } from '../../../domain/payers/card-fields';
import { Html, html } from '../html';
import { facts, text } from './case-views';

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
  const entries: Array<[string, Html | string]> = [];
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
  return html`<section class="card" aria-labelledby="request-heading">
    <h2 id="request-heading">Request</h2>
    ${facts(entries)}
  </section>`;
}

/**
 * What the case read from the insurance card: each field with its confidence, those close to their
 * threshold flagged, those not read named, the value used for each with its source, and conflicts.
 */
export function insuranceCardSection(card: InsuranceCardView | null | undefined): Html {
  if (!card) return html``;
  const read = Object.entries(card.scanned) as Array<[CardField, { value: string; confidence: number }]>;
  return html`<section class="card" aria-labelledby="insurance-card-heading">
    <h2 id="insurance-card-heading">Insurance card</h2>
    ${card.error ? html`<p class="notice notice-error" role="status">${card.error.message}</p>` : ''}
    ${
      read.length === 0
        ? html`<p class="empty">No card field could be read with confidence.</p>`
        : html`<table>
            <caption>
              Fields read from the card
            </caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Value</th>
                <th scope="col">Confidence</th>
              </tr>
            </thead>
            <tbody>
              ${read.map(
                ([field, { value, confidence }]) =>
                  html`<tr>
                    <td>${CARD_FIELD_LABELS[field]}</td>
                    <td><code>${value}</code></td>
                    <td>
                      ${Math.round(confidence * 100)} %
                      ${
                        confidence < CARD_FIELD_THRESHOLDS[field] + SURE_MARGIN
                          ? html`<span class="badge badge-warn">Check</span>`
                          : ''
                      }
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
    ${facts([
      ['Not read', card.unread.map((field) => CARD_FIELD_LABELS[field]).join(', ') || '—'],
      [
        'Other cards',
        card.other_cards
          .map((other) => `${other.payer_name ?? 'payer not read'}, member ${other.member_id ?? 'not read'}`)
          .join('; ') || '—',
      ],
      [
        'Used',
        Object.entries(card.used)
          .map(([field, used]) => `${field}: ${used.value} (${SOURCE_LABELS[used.source]})`)
          .join('; ') || '—',
      ],
    ])}
    ${
      card.conflicts.length
        ? html`<p class="notice notice-error">
            ${card.conflicts.map(
              (conflict) =>
                html`The card reads ${conflict.field} <code>${conflict.card}</code>, the data sent
                  <code>${conflict.discrete}</code>; the data sent is used.<br />`,
            )}
          </p>`
        : ''
    }
  </section>`;
}

/**
 * The criteria the prefill answered for the reviewer, each with where its answer came from, and the
 * evidence the answers could not see.
 */
export function criteriaSection(
  criteria: CriterionAnswer[] | undefined,
  unread: UnreadEvidence[] = [],
): Html {
  if (!criteria?.length) return html``;
  return html`<section class="card" aria-labelledby="criteria-heading">
    <h2 id="criteria-heading">Criteria</h2>
    <table>
      <caption>
        The plan's criteria, answered from the request
      </caption>
      <thead>
        <tr>
          <th scope="col">Question</th>
          <th scope="col">Answer</th>
          <th scope="col">From</th>
        </tr>
      </thead>
      <tbody>
        ${criteria.map(
          (criterion) =>
            html`<tr>
              <td>${criterion.question}</td>
              <td>${criterion.answer}</td>
              <td>${text(criterion.source)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${
      unread.length
        ? html`<p class="notice notice-error">
            Not seen by these answers:
            ${unread.map((item) => `${item.title}${item.reason ? ` (${item.reason})` : ''}`).join('; ')}
          </p>`
        : ''
    }
  </section>`;
}
