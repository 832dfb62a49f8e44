import { Html, html } from './html';

/**
 * Links (or POST forms, for pages whose filters must not enter a URL) to other pages of a list;
 * nothing at all when there is only one page. `label` names the navigation landmark.
 */
export function pager(label: string, pages: ReadonlyArray<Html | false | undefined>): Html | '' {
  const shown = pages.filter((page): page is Html => page instanceof Html);
  if (shown.length === 0) return '';
  return html`<nav class="pager" aria-label="${label}">${shown}</nav>`;
}

/** A link to another page of a list; `rel` tells assistive tools which way it goes. */
export function pageLink(href: string, text: string, rel?: 'prev' | 'next'): Html {
  const attributes = rel ? html`href="${href}" rel="${rel}"` : html`href="${href}"`;
  return html`<a ${attributes}>${text}</a>`;
}

/**
 * The pager of a list read newest first, a cursor a page: from an older page, a link back to the
 * newest (which has no cursor); while older entries remain, a link on to them.
 */
export function newestFirstPager({
  label,
  path,
  cursor,
  nextCursor,
  entries,
}: {
  /** Names the navigation landmark. */
  label: string;
  /** The list's address: its newest page, with no cursor. */
  path: string;
  /** This page's cursor; none on the newest page. */
  cursor?: string;
  nextCursor: string | null;
  /** What the list holds, as its links name it: `mail` gives `Newest mail` and `Older mail`. */
  entries: string;
}): Html | '' {
  return pager(label, [
    cursor ? pageLink(path, `Newest ${entries}`, 'prev') : undefined,
    nextCursor ? pageLink(`${path}?cursor=${nextCursor}`, `Older ${entries}`, 'next') : undefined,
  ]);
}
