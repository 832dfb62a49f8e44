import { Html, html } from './html';

/** A moment as people read it (UTC, to the minute), with the exact instant for machines. */
export function moment(value: string | Date | null | undefined, absent = '—'): Html {
  if (value === null || value === undefined) return html`${absent}`;
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return html`${String(value)}`;
  const iso = instant.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** A day as people read it (UTC), with the exact instant for machines. */
export function day(value: string | Date): Html {
  const iso = new Date(value).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;
}

/** Post/Redirect/Get notices: the query names one of these codes, never the text itself. */
export function doneNotice(
  sentences: Record<string, string>,
  code: unknown,
): { kind: 'success'; text: string } | undefined {
  return typeof code === 'string' && Object.hasOwn(sentences, code)
    ? { kind: 'success', text: sentences[code]! }
    : undefined;
}
