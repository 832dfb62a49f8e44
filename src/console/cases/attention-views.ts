import {
  OPERATOR_FAILURE_REASONS,
  type AttentionReason,
  type CaseAttention,
  type CaseRecord,
} from '../../../domain/cases/case-model';
import {
  actionButton,
  card,
  definitionList,
  emptyState,
  errorList,
  postForm,
  selectField,
  submitButton,
  table,
  textareaField,
} from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';
import { type CaseSection, casePath } from './case-sections';
import { statusBadge } from '../views/case-values';

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
  return card({
    id: 'attention-heading',
    heading: 'Needs attention',
    body: html`${definitionList([
      ['Reason', html`${ATTENTION_REASON_WORDS[attention.reason]} (<code>${attention.reason}</code>)`],
      ['Since', moment(attention.since)],
      ['Next automatic retry', moment(attention.next_retry_at)],
    ])}
    ${actions}`,
  });
}

/** Retry now and Fail, as `POST /{type}/{id}/retry` and `/fail` take them. */
export function operatorActionsView(
  path: string,
  csrf: Html,
  values: Record<string, string> = {},
  errors: string[] = [],
): Html {
  return html`${errorList(errors)} ${actionButton({ action: `${path}/retry`, csrf, label: 'Retry now' })}
  ${postForm({
    action: `${path}/fail`,
    csrf,
    className: 'narrow',
    confirm: 'End this case as failed? The provider is notified and it cannot be undone.',
    body: html`${selectField({
        name: 'reason',
        id: 'fail-reason',
        label: 'Reason',
        value: values.reason,
        options: Object.entries(OPERATOR_FAILURE_REASONS).map(([reason, sentence]) => ({
          value: reason,
          label: sentence,
        })),
      })}
      ${textareaField({
        name: 'note',
        id: 'fail-note',
        label: 'Note for other operators (kept encrypted in the workflow history only)',
        rows: 2,
        value: values.note,
      })}
      <div class="actions">${submitButton({ label: 'Fail', kind: 'danger' })}</div>`,
  })}`;
}

/**
 * The attention list: newest outage first, ids, enums and times only. `readLimit` is set when more
 * cases wait than were read, and says where to see them all.
 */
export function attentionListView(rows: AttentionRow[], readLimit: number | undefined): Html {
  return html`<p>
      Cases of every account whose payer or program hub stays unavailable: each keeps its status and calls
      again by itself until its deadline. Open one to retry it now or end it as failed.
    </p>
    ${attentionTable(rows)}
    ${
      readLimit !== undefined &&
      html`<p role="note">
        Only the first ${readLimit} cases are read; the saved query in Temporal Web lists them all.
      </p>`
    }`;
}

function attentionTable(rows: AttentionRow[]): Html {
  return table({
    caption: 'Cases waiting out a connector outage, newest first',
    rows,
    empty: emptyState('No case is waiting out an outage.', { announced: true }),
    columns: [
      {
        heading: 'Case',
        cell: ({ section, record }) => html`<a href="${casePath(section, record.id)}">${record.id}</a>`,
      },
      { heading: 'Type', cell: ({ section }) => section.singular },
      { heading: 'Account', cell: ({ accountId }) => html`<code>${accountId}</code>` },
      { heading: 'Status', cell: ({ record }) => statusBadge(record.status) },
      { heading: 'Reason', cell: ({ record }) => html`<code>${record.attention.reason}</code>` },
      { heading: 'Since', cell: ({ record }) => moment(record.attention.since) },
      { heading: 'Next retry', cell: ({ record }) => moment(record.attention.next_retry_at) },
    ],
  });
}
