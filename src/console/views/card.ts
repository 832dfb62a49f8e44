import { Html, html } from './html';

export interface CardProps {
  heading?: Html | string;
  /**
   * The heading's id: the section is then a region named by its heading, which screen readers list
   * and in-page links (`#review-heading`) reach.
   */
  id?: string;
  /** Forms read better in a narrow column than across a wide screen. */
  narrow?: boolean;
  /** A section without the card frame, for headings that structure a page of plain tables. */
  framed?: boolean;
  body: Html;
}

/** A titled part of a page; the heading level is always 2, under the page's one h1. */
export function card({ heading, id, narrow = false, framed = true, body }: CardProps): Html {
  const classes = [framed && 'card', narrow && 'narrow'].filter(Boolean).join(' ');
  const headingMarkup =
    heading === undefined ? '' : id ? html`<h2 id="${id}">${heading}</h2>` : html`<h2>${heading}</h2>`;
  return html`<section ${classes ? html`class="${classes}"` : ''} ${id ? html`aria-labelledby="${id}"` : ''}>
    ${headingMarkup} ${body}
  </section>`;
}
