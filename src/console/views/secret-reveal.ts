import { Html, html } from './html';

export interface SecretRevealProps {
  /** The element the copy button reads from; also what tests and people's tools find it by. */
  id: string;
  value: string;
  copyLabel: string;
}

/**
 * A value shown once (a new API key, an invitation link, an authenticator key) with a button that
 * copies it; the script reads it from the page, so nothing but the page ever holds it.
 */
export function secretReveal({ id, value, copyLabel }: SecretRevealProps): Html {
  return html`<p class="secret" id="${id}">${value}</p>
    <button type="button" class="small" data-copy-from="${id}">${copyLabel}</button>`;
}
