import type { BenefitVerificationCase } from '../../../domain/cases/benefit-verification';
import type { CaseRecord, DocumentRef } from '../../../domain/cases/case-model';
import type { ClinicalEligibilityCase } from '../../../domain/cases/clinical-eligibility';
import type { PatientEnrollmentCase } from '../../../domain/cases/patient-enrollment';
import type { PriorAuthorizationCase } from '../../../domain/cases/prior-authorization';
import type { EnrollmentConfirmation } from '../../../domain/programs/confirmation-model';
import type { EnrollmentOutcome } from '../../../domain/programs/enrollment-model';
import type { PatientAuthorization } from '../../../domain/programs/patient-authorization';
import { DEFAULT_READING_LIMITS } from '../../../infrastructure/documents/reading-limits';
import type { CaseEventDelivery } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import { Html, html } from '../html';
import { moment } from '../markup';
import { CHOICE_FIELD, DecisionField, DecisionForm, DecisionRows, rowFieldName } from './decision-forms';

const BADGES: Record<string, string> = {
  completed: 'badge-ok',
  succeeded: 'badge-ok',
  awaiting_review: 'badge-warn',
  awaiting_outcome: 'badge-warn',
  approved: 'badge-ok',
  partially_approved: 'badge-warn',
  denied: 'badge-bad',
  not_submitted: 'badge-bad',
  information_requested: 'badge-warn',
  pending: 'badge-warn',
  failed: 'badge-bad',
  cancelled: 'badge-bad',
  abandoned: 'badge-bad',
  read: 'badge-ok',
  partly_read: 'badge-warn',
  unreadable: 'badge-bad',
  unsupported: 'badge-bad',
  not_read: 'badge-warn',
};

export function statusBadge(status: string): Html {
  const kind = BADGES[status];
  return html`<span class="${kind ? `badge ${kind}` : 'badge'}">${status.replace(/_/g, ' ')}</span>`;
}

export function dueBadge(dueAt: string | null, overdue: boolean): Html {
  if (!dueAt) return html``;
  return overdue
    ? html`<span class="badge badge-bad">Overdue</span> ${moment(dueAt)}`
    : html`<span class="badge badge-warn">Due</span> ${moment(dueAt)}`;
}

export const text = (value: unknown): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

const yesNo = (value: boolean | null | undefined): string =>
  value === null || value === undefined ? '—' : value ? 'Yes' : 'No';

const cents = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `$${(value / 100).toFixed(2)}`;

export function facts(entries: Array<[string, Html | string]>): Html {
  return html`<dl class="facts">
    ${entries.map(
      ([term, value]) =>
        html`<dt>${term}</dt>
          <dd>${value}</dd>`,
    )}
  </dl>`;
}

/** The case's moves, oldest first, each with when and why. */
export function timeline(record: CaseRecord): Html {
  return html`<section class="card" aria-labelledby="timeline-heading">
    <h2 id="timeline-heading">Status history</h2>
    <ol class="timeline">
      ${record.status_history.map(
        (change) =>
          html`<li>
            ${statusBadge(change.status)} ${moment(change.at)}
            ${change.reason ? html`<span class="reason">${change.reason}</span>` : ''}
          </li>`,
      )}
    </ol>
  </section>`;
}

export function caseFacts(record: CaseRecord): Html {
  const entries: Array<[string, Html | string]> = [
    ['Case id', html`<code>${record.id}</code>`],
    ['Status', html`${statusBadge(record.status)} ${record.status_description}`],
    ['Created', moment(record.created_at)],
    ['Updated', moment(record.updated_at)],
  ];
  if (record.object === 'prior_authorization') {
    const pa = record as PriorAuthorizationCase;
    const reviewOverdue =
      pa.status === 'awaiting_review' && !!pa.review_due_at && Date.parse(pa.review_due_at) < Date.now();
    entries.push(
      ['Urgency', pa.urgency],
      ['Review due', pa.review_due_at ? dueBadge(pa.review_due_at, reviewOverdue) : '—'],
      [
        'Payer decision due',
        pa.due_at ? dueBadge(pa.due_at, pa.overdue) : 'Set when the payer receives the request',
      ],
    );
    if (pa.submission) entries.push(['Payer reference', pa.submission.payer_reference]);
  }
  if (record.object === 'patient_enrollment') {
    const enrollment = record as PatientEnrollmentCase;
    entries.push(
      ['Program', enrollment.program_id],
      ['Patient authorization', authorizationFact(enrollment.request.patient_authorization)],
    );
  }
  if (record.failure) entries.push(['Failure', `${record.failure.message} (${record.failure.code})`]);
  return html`<section class="card" aria-labelledby="facts-heading">
    <h2 id="facts-heading">Case</h2>
    ${facts(entries)}
  </section>`;
}

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

/** What the case came to: per-drug tables, the payer's or program's outcome, the review. */
export function caseResults(record: CaseRecord): Html {
  const body = resultsOf(record);
  return html`<section class="card" aria-labelledby="results-heading">
    <h2 id="results-heading">Results</h2>
    ${body ?? html`<p class="empty">No results yet.</p>`}
  </section>`;
}

function resultsOf(record: CaseRecord): Html | undefined {
  switch (record.object) {
    case 'benefit_verification':
      return benefitResults(record as BenefitVerificationCase);
    case 'clinical_eligibility':
      return clinicalResults(record as ClinicalEligibilityCase);
    case 'prior_authorization':
      return priorAuthorizationResults(record as PriorAuthorizationCase);
    case 'patient_enrollment':
      return enrollmentResults(record as PatientEnrollmentCase);
  }
}

function benefitResults(record: BenefitVerificationCase): Html | undefined {
  const { outcome, error } = record;
  if (!outcome) return error ? facts([['Payer error', `${error.message} (${error.code})`]]) : undefined;
  const dates = outcome.coverage_dates;
  return html`${facts([
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
    <table>
      <caption>
        Drug coverage
      </caption>
      <thead>
        <tr>
          <th scope="col">Drug</th>
          <th scope="col">Coverage</th>
          <th scope="col">Benefit</th>
          <th scope="col">Tier</th>
          <th scope="col">Prior authorization</th>
          <th scope="col">Step therapy</th>
          <th scope="col">Quantity limit</th>
          <th scope="col">Copay</th>
          <th scope="col">Coinsurance</th>
          <th scope="col">Source</th>
        </tr>
      </thead>
      <tbody>
        ${outcome.drugs.map(
          (drug) =>
            html`<tr>
              <td>${drug.drug}</td>
              <td>
                ${drug.coverage.replace('_', ' ')}
                (${drug.coverage_detail_code})${drug.unknown_reason ? html`<br />${drug.unknown_reason}` : ''}
              </td>
              <td>${text(drug.benefit_type)}${drug.hcpcs_code ? ` (HCPCS ${drug.hcpcs_code})` : ''}</td>
              <td>${text(drug.tier)}</td>
              <td>${text(drug.prior_authorization_required)}</td>
              <td>${yesNo(drug.step_therapy_required)}</td>
              <td>${quantityLimit(drug.quantity_limit, drug.quantity_limit_period_days)}</td>
              <td>
                ${drug.copay ? `${cents(drug.copay.amount_cents)} / ${drug.copay.supply_duration_days} days` : '—'}
              </td>
              <td>${typeof drug.coinsurance_percent === 'number' ? `${drug.coinsurance_percent} %` : '—'}</td>
              <td>${text(drug.source)}</td>
            </tr>`,
        )}
      </tbody>
    </table>`;
}

/** Results recorded before a field existed lack it, so absent reads as not given. */
function quantityLimit(quantity: number | null, periodDays: number | null | undefined): string {
  if (quantity === null) return '—';
  return periodDays ? `${quantity} per ${periodDays} days` : String(quantity);
}

function clinicalResults(record: ClinicalEligibilityCase): Html | undefined {
  if (!record.outcome) return undefined;
  return html`<table>
    <caption>
      Eligibility per drug
    </caption>
    <thead>
      <tr>
        <th scope="col">Drug</th>
        <th scope="col">Eligibility</th>
        <th scope="col">Criteria met</th>
        <th scope="col">Prior authorization required</th>
        <th scope="col">Reasons</th>
      </tr>
    </thead>
    <tbody>
      ${record.outcome.results.map(
        (result) =>
          html`<tr>
            <td>${result.drug}</td>
            <td>${statusBadge(result.status)}</td>
            <td>
              ${result.criteria.filter((criterion) => criterion.status === 'met').length} of
              ${result.criteria.length}
            </td>
            <td>${text(result.prior_authorization_requirement ?? result.prior_authorization_required)}</td>
            <td>${result.unqualified_reasons.map((reason) => reason.description).join('; ') || '—'}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function priorAuthorizationResults(record: PriorAuthorizationCase): Html | undefined {
  const { review, outcome, pending_request: pending } = record;
  if (!review && !outcome && !pending) return undefined;
  return html`${
    pending
      ? html`<table>
          <caption>
            The payer asks for information, answer by ${moment(pending.due_at)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Question id</th>
              <th scope="col">Question</th>
            </tr>
          </thead>
          <tbody>
            ${pending.questions.map(
              (question) =>
                html`<tr>
                  <td><code>${question.id}</code></td>
                  <td>${question.text}</td>
                </tr>`,
            )}
          </tbody>
        </table>`
      : ''
  }${
    review
      ? html`<h3>Clinical review</h3>
          ${facts([
            ['Decision', review.decision === 'approve' ? 'Approved' : 'Rejected'],
            ['Reviewer', review.reviewer],
            ['Note', text(review.notes)],
            ['Decided', moment(review.decided_at)],
          ])}`
      : ''
  }
  ${
    outcome
      ? html`<h3>Payer determination</h3>
          ${facts([
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
      : ''
  }`;
}

function enrollmentResults(record: PatientEnrollmentCase): Html | undefined {
  const { outcome, missing_information: missing } = record;
  if (!outcome && missing.length === 0) return undefined;
  return html`${
    missing.length > 0
      ? html`<table>
          <caption>
            Information the program asked for
          </caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Why</th>
            </tr>
          </thead>
          <tbody>
            ${missing.map(
              (item) =>
                html`<tr>
                  <td>${item.field}</td>
                  <td>${item.reason}</td>
                </tr>`,
            )}
          </tbody>
        </table>`
      : ''
  }
  ${
    outcome
      ? html`<h3>Enrollment outcome</h3>
          ${facts([
            ['Result', outcome.result],
            ...cardFacts(outcome),
            ['Valid until', text(outcome.valid_until)],
            ['Detail', text(outcome.detail)],
            ...(outcome.confirmation ? confirmationFacts(outcome.confirmation) : []),
          ])}`
      : ''
  }`;
}

/** Card identifiers belong to copay cards: shown when the outcome has any, left out for other programs. */
function cardFacts(outcome: EnrollmentOutcome): Array<[string, string]> {
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
function confirmationFacts(confirmation: EnrollmentConfirmation): Array<[string, string]> {
  const kind: [string, string] = ['Confirmation', CONFIRMATION_LABELS[confirmation.kind]];
  switch (confirmation.kind) {
    case 'copay_card':
      return [kind];
    case 'free_drug_fulfillment':
    case 'bridge_supply_fulfillment':
    case 'quick_start_fulfillment': {
      const shipment: Array<[string, string]> = [
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

/** Every stored document a case refers to, wherever in its request it sits. */
export function documentsOf(record: CaseRecord): DocumentRef[] {
  const found: DocumentRef[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const candidate = value as Partial<DocumentRef>;
    if (typeof candidate.document_id === 'string' && typeof candidate.name === 'string') {
      found.push(candidate as DocumentRef);
      return;
    }
    Object.values(value).forEach(visit);
  };
  visit((record as CaseRecord & { request?: unknown }).request);
  return found;
}

/**
 * Each document with what reading it found, a link to download it, and the images the reader kept of
 * its first pages (`previewed`: the documents whose readings kept them). `path` is the case page's,
 * under which the console serves documents and page images.
 */
export function documentsTable(
  documents: DocumentRef[],
  record: CaseRecord,
  path: string,
  /** Operators see which documents a case holds, never their content. */
  { showsContent, previewed }: { showsContent: boolean; previewed: ReadonlySet<string> },
): Html {
  const readingOf = (documentId: string) =>
    record.documents?.find((document) => document.document_id === documentId)?.reading;
  return html`<section class="card" aria-labelledby="documents-heading">
    <h2 id="documents-heading">Documents</h2>
    ${
      documents.length === 0
        ? html`<p class="empty">No documents were submitted with this case.</p>`
        : html`<table>
              <caption>
                Submitted documents
              </caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Content type</th>
                  <th scope="col">Reading</th>
                </tr>
              </thead>
              <tbody>
                ${documents.map((document) => {
                  const reading = readingOf(document.document_id);
                  return html`<tr>
                    <td>
                      ${
                        showsContent
                          ? html`<a href="${path}/documents/${document.document_id}">${document.name}</a>`
                          : document.name
                      }
                    </td>
                    <td>${document.type}</td>
                    <td>
                      ${
                        reading
                          ? html`${statusBadge(reading.status)} ${reading.method ?? ''}, ${reading.pages_read}
                            of ${reading.pages}
                            pages${
                              reading.confidence === null
                                ? ''
                                : `, ${Math.round(reading.confidence * 100)} % sure`
                            }${reading.reason ? html`<span class="reason">${reading.reason}</span>` : ''}`
                          : 'Not read'
                      }
                    </td>
                  </tr>`;
                })}
              </tbody>
            </table>
            ${documents
              .filter((document) => showsContent && previewed.has(document.document_id))
              .flatMap((document) =>
                previewPages(readingOf(document.document_id)).map(
                  (page) =>
                    html`<figure class="document-preview">
                      <img
                        src="${path}/documents/${document.document_id}/pages/${page}"
                        alt="${document.name}, page ${page}"
                      />
                      <figcaption>${document.name}, page ${page}</figcaption>
                    </figure>`,
                ),
              )}`
    }
  </section>`;
}

/** The pages the reader kept an image of: the first ones it read, up to its limit. */
function previewPages(reading: { pages_read: number } | undefined): number[] {
  const count = Math.min(reading?.pages_read ?? 0, DEFAULT_READING_LIMITS.previewPages);
  return Array.from({ length: count }, (_, index) => index + 1);
}

export function deliveriesTable(deliveries: CaseEventDelivery[]): Html {
  return html`<section class="card" aria-labelledby="deliveries-heading">
    <h2 id="deliveries-heading">Webhook deliveries</h2>
    ${
      deliveries.length === 0
        ? html`<p class="empty">No webhook deliveries for this case.</p>`
        : html`<table>
            <caption>
              Notifications of this case's changes
            </caption>
            <thead>
              <tr>
                <th scope="col">Announced status</th>
                <th scope="col">Endpoint</th>
                <th scope="col">Delivery</th>
                <th scope="col">Attempts</th>
                <th scope="col">Created</th>
                <th scope="col">Completed</th>
              </tr>
            </thead>
            <tbody>
              ${deliveries.map(
                (delivery) =>
                  html`<tr>
                    <td>${statusBadge(delivery.case_status)}</td>
                    <td><code>${delivery.endpoint_id}</code></td>
                    <td>${statusBadge(delivery.status)}${delivery.retry_of ? ' (manual retry)' : ''}</td>
                    <td>${delivery.attempts}</td>
                    <td>${moment(delivery.created_at)}</td>
                    <td>${moment(delivery.completed_at)}</td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }
  </section>`;
}

/** A decision form, with what the person typed kept when it comes back with errors. */
export function decisionFormView(
  form: DecisionForm,
  casePath: string,
  csrf: Html,
  record: CaseRecord,
  values: Record<string, string> = {},
  errors: string[] = [],
): Html {
  const idOf = (name: string) => `${form.decision}-${name.replace(/\./g, '-')}`;
  return html`<section class="card" aria-labelledby="${form.decision}-heading">
    <h2 id="${form.decision}-heading">${form.heading}</h2>
    ${
      errors.length > 0
        ? html`<ul class="notice notice-error" role="alert">
            ${errors.map((error) => html`<li>${error}</li>`)}
          </ul>`
        : ''
    }
    <form method="post" action="${casePath}/${form.decision}" class="narrow">
      ${csrf}
      ${form.fields.map((field) => {
        const id = idOf(field.name);
        return html`<label for="${id}">${field.label}</label
          >${fieldControl(field, field.name, id, values[field.name] ?? '')}`;
      })}
      ${form.rows ? decisionRowsView(form.rows, record, values, idOf) : ''}
      <div class="actions">
        ${form.buttons.map(
          (button) =>
            html`<button
              type="submit"
              class="${button.kind ?? ''}"
              ${button.value ? html`name="${CHOICE_FIELD}" value="${button.value}"` : ''}
            >
              ${button.label}
            </button>`,
        )}
      </div>
    </form>
  </section>`;
}

/** One row per item of the case, each cell a field labelled with its column and the item. */
function decisionRowsView(
  rows: DecisionRows,
  record: CaseRecord,
  values: Record<string, string>,
  idOf: (name: string) => string,
): Html {
  return html`<table>
    <caption>
      ${rows.caption}
    </caption>
    <thead>
      <tr>
        <th scope="col">${rows.keyHeading}</th>
        ${rows.fields.map((field) => html`<th scope="col">${field.label}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.keysOf(record).map((key, index) => {
        const keyName = rowFieldName(rows, index, rows.keyField);
        return html`<tr>
          <th scope="row">${key}<input type="hidden" name="${keyName}" value="${key}" /></th>
          ${rows.fields.map((field) => {
            const name = rowFieldName(rows, index, field.name);
            return html`<td>
              ${fieldControl(field, name, idOf(name), values[name] ?? '', `${field.label}: ${key}`)}
            </td>`;
          })}
        </tr>`;
      })}
    </tbody>
  </table>`;
}

/** The input for a field; `ariaLabel` names it where no visible label stands beside it. */
function fieldControl(
  field: DecisionField,
  name: string,
  id: string,
  value: string,
  ariaLabel?: string,
): Html {
  const label = ariaLabel ? html`aria-label="${ariaLabel}"` : '';
  switch (field.kind) {
    case 'textarea':
      return html`<textarea id="${id}" name="${name}" rows="3" ${label}>${value}</textarea>`;
    case 'select':
      return html`<select id="${id}" name="${name}" ${label}>
        ${(field.options ?? []).map(
          (option) =>
            html`<option value="${option}" ${option === value ? html`selected` : ''}>
              ${option === '' ? '(not given)' : option.replace(/_/g, ' ')}
            </option>`,
        )}
      </select>`;
    default:
      return html`<input id="${id}" name="${name}" type="${field.kind}" value="${value}" ${label} />`;
  }
}
