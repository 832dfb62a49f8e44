import type { CASE_FAILURE_CODE } from '../failures';

/**
 * The names of what an insurance card prints and what a case shows of one: a leaf of the domain, so
 * case shapes and payer contracts can name them without depending on the card reader.
 */
export const CARD_FIELDS = [
  'payer_name',
  'plan_name',
  'member_name',
  'member_id',
  'group_number',
  'rx_bin',
  'rx_pcn',
  'rx_group',
  'client_name',
  'effective_date',
  'payer_id',
  'medicare_beneficiary_id',
  'medicaid_id',
] as const;

export type CardField = (typeof CARD_FIELDS)[number];

/** Why a card field is unread (docs/decisions.md#card-readers). */
export type CardUnreadReason = 'not_found' | 'below_threshold' | 'readers_disagree' | 'glare';

/** Why a case could not rely on a card it read (domain/failures.ts). */
export type UnreadCardCode =
  | typeof CASE_FAILURE_CODE.insuranceCardUnreadable
  | typeof CASE_FAILURE_CODE.insuranceCardMemberIdUnreadable
  | typeof CASE_FAILURE_CODE.insuranceDocumentNotACard;

/** Why a card cannot identify the member: a code of UnreadCardCode and a message for the provider. */
export interface CardGap {
  code: UnreadCardCode;
  message: string;
}

/** The discrete insurance fields (`insurance_content`) a card also prints. */
export type SharedInsuranceField = 'payer' | 'member_id' | 'group_number' | 'rx_bin' | 'rx_pcn' | 'rx_group';

/** Where a value the case used came from: `reviewer` when a person confirmed it during a manual verification. */
export type InsuranceSource = 'discrete' | 'card' | 'reviewer';

/**
 * What a case shows of its insurance when it read a card (docs/decisions.md#insurance-cards): the card's fields read
 * with confidence, the discrete `insurance_content`, the value the case used for each field with where
 * it came from, and where the two disagree. Values only: the words and their positions stay with the
 * sealed reading.
 */
export interface InsuranceCardView {
  /**
   * `readers` (v1.3): how many independent readings gave the value, 2 where both of the reader's OCR
   * engines read it in the same place; absent in cases read before there were two readers. `inferred`
   * (v1.3): the value was placed by its shape and where it stands, its label unread.
   */
  scanned: Partial<
    Record<CardField, { value: string; confidence: number; readers?: 1 | 2; inferred?: true }>
  >;
  /** Card fields not read with the confidence their thresholds ask: never used, never guessed. */
  unread: CardField[];
  /**
   * Why each unread field is (v1.3): `not_found` (no value of its shape), `below_threshold` (read by
   * one reader only, or too unsure), `readers_disagree` (the two readers read different values there,
   * or print ran on past the value), `glare` (a washed-out patch of the photo lies over the field's
   * label or value). Absent in cases read before.
   */
  unread_reasons?: Partial<Record<CardField, CardUnreadReason>>;
  discrete: Partial<Record<SharedInsuranceField, string>> | null;
  used: Partial<Record<SharedInsuranceField, { value: string; source: InsuranceSource }>>;
  conflicts: Array<{ field: SharedInsuranceField; discrete: string; card: string }>;
  /**
   * Other cards among the documents (another plan: a secondary insurance), never merged into this one:
   * what identifies each, as read with confidence.
   */
  other_cards: Array<{ payer_name: string | null; member_id: string | null }>;
  /** Why the case cannot take the member from the card, or null when it can (docs/decisions.md#insurance-cards). */
  error: CardGap | null;
}

/**
 * An identifier as printed, upper-cased, without what stands before its first or after its last letter
 * or digit: the `#` or `:` of its label, a trailing comma. A scan rather than a pattern, so a long run
 * of punctuation costs one pass.
 */
export function identifierCore(text: string): string {
  const upper = text.toUpperCase();
  const isLetterOrDigit = (index: number) => {
    const code = upper.charCodeAt(index);
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  };
  let start = 0;
  let end = upper.length;
  while (start < end && !isLetterOrDigit(start)) start += 1;
  while (end > start && !isLetterOrDigit(end - 1)) end -= 1;
  return upper.slice(start, end);
}
