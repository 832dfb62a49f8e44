import { Html, html } from '../html';

/** A moment as people read it (UTC, to the minute), keeping the exact time for machines. */
export function moment(iso: string | null, absent = 'never'): Html | string {
  if (!iso) return absent;
  const shown = `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return html`<time datetime="${iso}">${shown}</time>`;
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
