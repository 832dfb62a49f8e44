import type { InsuranceContent } from '../cases/case-model';
import { CARD_FIELDS } from './card-fields';
import type { CardField, InsuranceCardView, SharedInsuranceField } from './card-fields';
import type { ScannedCard } from './insurance-card';

/** The discrete insurance fields a card also prints, each with the card field that gives it. */
const SHARED_FIELDS = [
  ['payer', 'payer_name'],
  ['member_id', 'member_id'],
  ['group_number', 'group_number'],
  ['rx_bin', 'rx_bin'],
  ['rx_pcn', 'rx_pcn'],
  ['rx_group', 'rx_group'],
] as const satisfies ReadonlyArray<readonly [SharedInsuranceField & keyof InsuranceContent, CardField]>;

/** The member id a card gives: its own, or the Medicare or Medicaid id it carries instead. */
export function cardMemberId(card: ScannedCard): string | undefined {
  return (card.member_id ?? card.medicare_beneficiary_id ?? card.medicaid_id)?.value;
}

function cardValue(card: ScannedCard, field: CardField): string | undefined {
  return field === 'member_id' ? cardMemberId(card) : card[field]?.value;
}

/** A value as cards and data are compared: identifiers without case, spaces or dashes; names without punctuation. */
export function comparable(value: string): string {
  return value.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

function sameValue(a: string, b: string): boolean {
  return comparable(a) === comparable(b);
}

/**
 * Discrete data wins field by field and the card fills the gaps; a field both give differently is a
 * conflict, kept with both values, and the discrete one is used.
 */
export function insuranceCardView(
  content: InsuranceContent | undefined,
  card: ScannedCard,
  others: readonly ScannedCard[] = [],
  unreadReasons: InsuranceCardView['unread_reasons'] = {},
): InsuranceCardView {
  const scanned: InsuranceCardView['scanned'] = {};
  const unread: CardField[] = [];
  const unread_reasons: NonNullable<InsuranceCardView['unread_reasons']> = {};
  for (const field of CARD_FIELDS) {
    const value = card[field];
    if (value) {
      scanned[field] = {
        value: value.value,
        confidence: value.confidence,
        readers: value.readers,
        ...(value.inferred ? { inferred: true } : {}),
      };
    } else {
      unread.push(field);
      unread_reasons[field] = unreadReasons[field] ?? 'not_found';
    }
  }
  const discrete: NonNullable<InsuranceCardView['discrete']> = {};
  const used: InsuranceCardView['used'] = {};
  const conflicts: InsuranceCardView['conflicts'] = [];
  const fillsGaps = !content || sameMember(content, card);
  for (const [field, cardField] of SHARED_FIELDS) {
    const typed = content?.[field];
    const read = cardValue(card, cardField);
    if (typed) discrete[field] = typed;
    if (typed && read && !sameValue(typed, read)) conflicts.push({ field, discrete: typed, card: read });
    if (typed) used[field] = { value: typed, source: 'discrete' };
    else if (read && fillsGaps) used[field] = { value: read, source: 'card' };
  }
  const other_cards = others.map((other) => ({
    payer_name: other.payer_name?.value ?? null,
    member_id: cardValue(other, 'member_id') ?? null,
  }));
  return {
    scanned,
    unread,
    unread_reasons,
    discrete: content ? discrete : null,
    used,
    conflicts,
    other_cards,
    error: null,
  };
}

/**
 * Whether a card is the discrete data's: both give the same member id, or one of them gives none and
 * the card names no other payer. Only such a card fills the discrete data's gaps: another plan's never
 * does.
 */
export function sameMember(content: InsuranceContent, card: ScannedCard): boolean {
  const memberId = cardValue(card, 'member_id');
  if (memberId && content.member_id) return sameValue(content.member_id, memberId);
  const payer = card.payer_name?.value;
  return !payer || !content.payer || sameValue(content.payer, payer);
}

/** The discrete insurance with the gaps the card fills; nothing it gives is replaced. */
export function withCardFilledGaps(content: InsuranceContent, card: ScannedCard): InsuranceContent {
  const filled: Partial<InsuranceContent> = {};
  for (const [field, cardField] of SHARED_FIELDS) {
    const read = cardValue(card, cardField);
    if (!content[field] && read) filled[field] = read;
  }
  return { ...content, ...filled };
}

/** The card as a reviewer left it: the values they confirmed replace what was used, marked as theirs. */
export function withReviewerValues(
  view: InsuranceCardView,
  confirmed: Partial<Record<SharedInsuranceField, string>>,
): InsuranceCardView {
  const used = { ...view.used };
  for (const [field] of SHARED_FIELDS) {
    const value = confirmed[field];
    if (value) used[field] = { value, source: 'reviewer' };
  }
  return { ...view, used };
}
