import { Html, html } from './html';

/** How a badge reads at a glance; each tone is one colour of the stylesheet, never an inline style. */
export type BadgeTone = 'ok' | 'warn' | 'bad';

/** A short state word in a coloured pill; untoned badges are neutral, e.g. a test key's mode. */
export function badge(text: string, tone?: BadgeTone): Html {
  return html`<span class="${tone ? `badge badge-${tone}` : 'badge'}">${text}</span>`;
}
