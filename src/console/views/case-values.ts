import type { FeedbackRating } from '../../../domain/cases/case-feedback';
import { badge, BadgeTone } from './badge';
import { Html, html } from './html';
import { moment } from './markup';

/** The tone of each status, result and reading state a case page shows; others are neutral. */
const STATUS_TONES: Record<string, BadgeTone> = {
  completed: 'ok',
  succeeded: 'ok',
  awaiting_review: 'warn',
  awaiting_outcome: 'warn',
  approved: 'ok',
  partially_approved: 'warn',
  denied: 'bad',
  not_submitted: 'bad',
  information_requested: 'warn',
  pending: 'warn',
  failed: 'bad',
  cancelled: 'bad',
  abandoned: 'bad',
  read: 'ok',
  partly_read: 'warn',
  unreadable: 'bad',
  unsupported: 'bad',
  not_read: 'warn',
};

export function statusBadge(status: string): Html {
  return badge(status.replace(/_/g, ' '), STATUS_TONES[status]);
}

export function dueBadge(dueAt: string | null, overdue: boolean): Html {
  if (!dueAt) return html``;
  return html`${overdue ? badge('Overdue', 'bad') : badge('Due', 'warn')} ${moment(dueAt)}`;
}

/** A value of a case as text, a dash where the case does not say. */
export const text = (value: unknown): string =>
  value === null || value === undefined || value === '' ? '—' : String(value);

export const yesNo = (value: boolean | null | undefined): string =>
  value === null || value === undefined ? '—' : value ? 'Yes' : 'No';

export const cents = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : `$${(value / 100).toFixed(2)}`;

/** A feedback's rating in words, the same on the case page, the feedback form and the admins' report. */
export const FEEDBACK_RATING_WORDS: Readonly<Record<FeedbackRating, string>> = {
  correct: 'Correct',
  partially_correct: 'Partly correct',
  incorrect: 'Incorrect',
};
