import { Html, html } from './html';

export interface TimelineEntry {
  what: Html;
  when: Html;
  why?: string | null;
}

/** Moments in order, oldest first: an ordered list, so its order is read out, not only seen. */
export function timeline(entries: readonly TimelineEntry[]): Html {
  return html`<ol class="timeline">
    ${entries.map(
      (entry) =>
        html`<li>
          ${entry.what} ${entry.when} ${entry.why ? html`<span class="reason">${entry.why}</span>` : ''}
        </li>`,
    )}
  </ol>`;
}
