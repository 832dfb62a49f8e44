import { Html, html } from './html';

/** A one-time message at the top of a page, e.g. after a form was sent. */
export interface PageNotice {
  kind: 'success' | 'error';
  text: string;
}

export interface NoticeProps {
  kind: 'success' | 'error';
  body: Html | string;
  /**
   * `alert` and `status` make screen readers announce the notice; a warning that is part of the
   * page's content (a secret shown once, a card conflict) has none, so it is read in its place.
   */
  role?: 'alert' | 'status';
}

/** A sentence set apart from the page: a result, a refusal, or a warning to read before acting. */
export function notice({ kind, body, role }: NoticeProps): Html {
  return html`<p class="notice notice-${kind}" ${role ? html`role="${role}"` : ''}>${body}</p>`;
}

/** The refusals of a form, each its own item, announced as soon as the page comes back with them. */
export function errorList(errors: readonly string[]): Html | '' {
  if (errors.length === 0) return '';
  // The alert is the wrapper: a list given the alert role stops being a list to assistive technology.
  return html`<div class="notice notice-error" role="alert">
    <ul>
      ${errors.map((error) => html`<li>${error}</li>`)}
    </ul>
  </div>`;
}

/**
 * What stands where a list has nothing to show. `announced` lists (search answers) say it as a
 * status, so someone who filtered hears that nothing matched.
 */
export function emptyState(text: string, { announced = false }: { announced?: boolean } = {}): Html {
  return html`<p class="empty" ${announced ? html`role="status"` : ''}>${text}</p>`;
}
