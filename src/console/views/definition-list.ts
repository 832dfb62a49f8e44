import { Html, html } from './html';

/** A term and its value; a value of null or undefined leaves the term out. */
export type Fact = readonly [term: string, value: Html | string | number | null | undefined];

/**
 * Facts about one thing (a case, a key, an endpoint). Terms whose value is absent are left out
 * rather than shown empty, so a conditional fact needs no branch of markup in the page; a value the
 * page wants to show as unknown says so itself ("—", "never").
 */
export function definitionList(facts: readonly Fact[]): Html {
  return html`<dl class="facts">
    ${facts
      .filter(([, value]) => value !== null && value !== undefined)
      .map(
        ([term, value]) =>
          html`<dt>${term}</dt>
            <dd>${value}</dd>`,
      )}
  </dl>`;
}
