import {
  OPERATOR_FAILURE_REASONS,
  type AttentionReason,
  type CaseAttention,
  type CaseRecord,
} from '../../../domain/cases/case-model';
import { Html, html } from '../html';
import { moment } from '../markup';
import { type CaseSection, casePath } from './case-sections';
import { statusBadge } from './case-views';

/** What each attention reason means, in words a clinic and an operator both read. */
const ATTENTION_REASON_WORDS: Record<AttentionReason, string> = {
  payer_unavailable: 'The payer stays unavailable',
  program_unavailable: 'The program hub stays unavailable',
};

/** A case the attention list shows, with the account that owns it (operators see every account's). */
export interface AttentionRow {
  section: CaseSection;
  accountId: string;
  record: CaseRecord & { attention: CaseAttention };
}

/**
 * The case page's account of an outage the case waits out: why, since when, and when it calls
 * again by itself. `actions` are the operator's forms, for those allowed them.
 */
export function attentionCard(attention: CaseAttention, actions: Html | string): Html {
  return html`<section class="card" aria-labelledby="attention-heading">
    <h2 id="attention-heading">Needs attention</h2>
    <dl class="facts">
      <dt>Reason</dt>
      <dd>${ATTENTION_REASON_WORDS[attention.reason]} (<code>${attention.reason}</code>)</dd>
      <dt>Since</dt>
      <dd>${moment(attention.since)}</dd>
      <dt>Next automatic retry</dt>
      <dd>${moment(attention.next_retry_at)}</dd>
    </dl>
    ${actions}
  </section>`;
}

/** Retry now and Fail, as `POST /{type}/{id}/retry` and `/fail` take them. */
export function operatorActionsView(
  path: string,
  csrf: Html,
  values: Record<string, string> = {},
  errors: string[] = [],
): Html {
  return html`${
      errors.length > 0
        ? html`<ul class="notice notice-error" role="alert">
            ${errors.map((error) => html`<li>${error}</li>`)}
          </ul>`
        : ''
    }
    <form method="post" action="${path}/retry">
      ${csrf}
      <button type="submit">Retry now</button>
    </form>
    <form
      method="post"
      action="${path}/fail"
      class="narrow"
      data-confirm="End this case as failed? The provider is notified and it cannot be undone."
    >
      ${csrf}
      <label for="fail-reason">Reason</label>
      <select id="fail-reason" name="reason">
        ${Object.entries(OPERATOR_FAILURE_REASONS).map(
          ([reason, sentence]) =>
            html`<option value="${reason}" ${reason === values.reason ? html`selected` : ''}>
              ${sentence}
            </option>`,
        )}
      </select>
      <label for="fail-note">Note for other operators (kept encrypted in the workflow history only)</label>
      <textarea id="fail-note" name="note" rows="2">${values.note ?? ''}</textarea>
      <div class="actions"><button type="submit" class="danger">Fail</button></div>
    </form>`;
}

/** The attention list: newest outage first, ids, enums and times only. */
export function attentionTable(rows: AttentionRow[]): Html {
  return html`<table>
    <caption>
      Cases waiting out a connector outage, newest first
    </caption>
    <thead>
      <tr>
        <th scope="col">Case</th>
        <th scope="col">Type</th>
        <th scope="col">Account</th>
        <th scope="col">Status</th>
        <th scope="col">Reason</th>
        <th scope="col">Since</th>
        <th scope="col">Next retry</th>
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        ({ section, accountId, record }) =>
          html`<tr>
            <td><a href="${casePath(section, record.id)}">${record.id}</a></td>
            <td>${section.singular}</td>
            <td><code>${accountId}</code></td>
            <td>${statusBadge(record.status)}</td>
            <td><code>${record.attention.reason}</code></td>
            <td>${moment(record.attention.since)}</td>
            <td>${moment(record.attention.next_retry_at)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}
