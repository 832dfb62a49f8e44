import type { OutboxMessage } from '../../../infrastructure/mail/mail-outbox.repository';
import { card, definitionList, emptyState, newestFirstPager, table } from '../views';
import { Html, html } from '../views/html';
import { moment } from '../views/markup';

export const OUTBOX_PATH = '/console/providers/outbox';

/** What each purpose is called on the page; an unknown one is shown as it is stored. */
const PURPOSES: Readonly<Record<string, string>> = {
  'provider_authorization.signing_link': 'Signing link',
  'provider_authorization.signing_reminder': 'Signing reminder',
  'provider_authorization.renewal_reminder': 'Renewal reminder',
  'provider_authorization.confirmation': 'Confirmation',
};

const purposeOf = (purpose: string) => PURPOSES[purpose] ?? purpose;

export interface OutboxListProps {
  livemode: boolean;
  /** A local install keeps live-mode mail here too: there is no mail server to send it. */
  keepsLiveMail: boolean;
  messages: OutboxMessage[];
  /** Set when this page is not the newest messages: it links back to them. */
  cursor?: string;
  nextCursor: string | null;
}

/**
 * The mail test mode sent, newest first: what a prescriber would have received, signing links
 * included (they are the admin's own test-mode links). In live mode, where mail goes through the
 * mail connector, the page says so rather than listing nothing.
 */
export function outboxListView({
  livemode,
  keepsLiveMail,
  messages,
  cursor,
  nextCursor,
}: OutboxListProps): Html {
  if (livemode && !keepsLiveMail) {
    return card({
      id: 'live-outbox-heading',
      heading: 'Live mode sends mail',
      narrow: true,
      body: html`<p>
        The outbox holds test-mode mail only. Live-mode mail goes to prescribers through the account's
        <a href="/console/connectors/mail">mail connector</a> (an SMTP server); switch to test mode to read
        the mail test mode sent.
      </p>`,
    });
  }
  return html`<p class="hint">
      ${
        livemode
          ? 'This local install keeps live-mode mail here as well: it has no mail server to send it through.'
          : 'Mail sent in test mode stays here instead of reaching anyone. Messages are kept for 30 days.'
      }
    </p>
    ${table({
      caption: livemode ? 'Live-mode mail kept by this local install' : 'Mail sent in test mode',
      rows: messages,
      empty: emptyState('No mail has been sent in this mode yet.'),
      columns: [
        { heading: 'Sent', cell: (message) => moment(message.createdAt) },
        {
          heading: 'Subject',
          rowHeader: true,
          cell: (message) => html`<a href="${OUTBOX_PATH}/${message.id}">${message.subject}</a>`,
        },
        { heading: 'To', cell: (message) => message.to },
        { heading: 'Purpose', cell: (message) => purposeOf(message.purpose) },
      ],
    })}
    ${newestFirstPager({ label: 'Outbox pages', path: OUTBOX_PATH, cursor, nextCursor, entries: 'mail' })}`;
}

/** One message as its recipient would read it, its links clickable. */
export function outboxMessageView(message: OutboxMessage): Html {
  return html`<p><a href="${OUTBOX_PATH}">Back to the outbox</a></p>
    ${card({
      id: 'message-heading',
      heading: 'Message',
      body: html`${definitionList([
          ['To', message.to],
          ['Sent', moment(message.createdAt)],
          ['Purpose', purposeOf(message.purpose)],
          ['About', message.objectId && html`<code>${message.objectId}</code>`],
          ['Mode', message.livemode ? 'live (kept by this local install)' : 'test'],
        ])}
        <div class="message-text">${paragraphsOf(message.text)}</div>`,
    })}`;
}

/** The text's paragraphs and line breaks, with each http(s) address a link; everything else escaped. */
function paragraphsOf(text: string): Html[] {
  return text
    .split(/\r?\n\s*\r?\n/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map(
      (paragraph) =>
        html`<p>
          ${paragraph.split(/\r?\n/).map((line, index) => html`${index > 0 ? html`<br />` : ''}${linked(line)}`)}
        </p>`,
    );
}

/** An address ends before whitespace, and before the punctuation that closes a sentence around it. */
const ADDRESS = /https?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]]/g;

function linked(line: string): Html {
  const parts: Array<Html | string> = [];
  let from = 0;
  for (const match of line.matchAll(ADDRESS)) {
    parts.push(line.slice(from, match.index));
    parts.push(html`<a href="${match[0]}">${match[0]}</a>`);
    from = match.index + match[0].length;
  }
  parts.push(line.slice(from));
  return html`${parts}`;
}
