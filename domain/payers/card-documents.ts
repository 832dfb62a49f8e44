import type { ReadPage } from '../documents/document-reading';
import { readCard } from './insurance-card';
import type { CardReading, ScannedCard } from './insurance-card';
import { cardMemberId, comparable } from './insurance-card-view';

/** One insurance card as the case's documents show it: its pages (front and back) and what they read. */
export interface DocumentedCard extends CardReading {
  pages: ReadPage[];
}

const identityOf = (card: ScannedCard): string | undefined => {
  const memberId = cardMemberId(card);
  return memberId === undefined ? undefined : comparable(memberId);
};

/** Fields a card's two sides both print; sides that read them differently belong to different cards. */
const SHARED_ON_BOTH_SIDES = ['payer_name', 'group_number', 'rx_bin', 'rx_pcn', 'rx_group'] as const;

function disagree(a: ScannedCard, b: ScannedCard): boolean {
  return SHARED_ON_BOTH_SIDES.some((field) => {
    const [first, second] = [a[field]?.value, b[field]?.value];
    return first !== undefined && second !== undefined && comparable(first) !== comparable(second);
  });
}

/**
 * The cards among a case's scanned documents, in the order they were sent, never merged across plans.
 * Documents that read the same member id are one card; a document that reads none (the back of a card,
 * with its pharmacy block) belongs to the card sent next to it, unless a field both print differs.
 * The primary card, the one the case uses, is the one whose member id the discrete data gives, else
 * the first sent.
 */
export function cardsAmong(
  documents: ReadonlyArray<readonly ReadPage[]>,
  discreteMemberId?: string,
): { primary: DocumentedCard; others: DocumentedCard[] } | undefined {
  // Each group keeps what its pages read, re-read only when a document joins it.
  const groups: Array<{ identity?: string } & DocumentedCard> = [];
  for (const pages of documents) {
    const reading = readCard(pages);
    const card = reading.card;
    const identity = identityOf(card);
    const same = identity ? groups.find((group) => group.identity === identity) : undefined;
    const previous = groups[groups.length - 1];
    // A side without a member id, or a front after such a side, joins its neighbour when they agree.
    const joinsPrevious =
      previous !== undefined && (!identity || !previous.identity) && !disagree(previous.card, card);
    const joined = same ?? (joinsPrevious ? previous : undefined);
    if (joined) {
      joined.pages = [...joined.pages, ...pages];
      Object.assign(joined, readCard(joined.pages));
      joined.identity ??= identity;
    } else groups.push({ identity, pages: [...pages], ...reading });
  }
  if (groups.length === 0) return undefined;
  const cards = groups.map(({ identity: _identity, ...card }) => card);
  const wanted = discreteMemberId === undefined ? undefined : comparable(discreteMemberId);
  const primaryIndex = Math.max(
    0,
    groups.findIndex((group) => wanted !== undefined && group.identity === wanted),
  );
  return { primary: cards[primaryIndex]!, others: cards.filter((_, index) => index !== primaryIndex) };
}
