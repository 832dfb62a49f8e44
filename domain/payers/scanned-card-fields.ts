import { CASE_FAILURE_CODE } from '../failures';
import type { CardField, CardGap } from './card-fields';
import type { ScannedCard } from './insurance-card';
import type { ScannedCardFields } from './payer-connector';

/**
 * What a case takes from a card it read (docs/decisions.md#insurance-cards): the fields read with
 * confidence, and why a card that cannot identify the member cannot.
 */

/** The fields a case may use, those read with confidence, and the names of the card fields that were not. */
export function scannedCardFields(card: ScannedCard, text: string, documents: string[]): ScannedCardFields {
  const value = (field: CardField) => card[field]?.value;
  return {
    payer_name: value('payer_name'),
    plan_name: value('plan_name'),
    member_id: value('member_id') ?? value('medicare_beneficiary_id') ?? value('medicaid_id'),
    group_number: value('group_number'),
    rx_bin: value('rx_bin'),
    rx_pcn: value('rx_pcn'),
    rx_group: value('rx_group'),
    unread: (['payer_name', 'member_id', 'group_number', 'rx_bin', 'rx_pcn'] as const).filter(
      (field) => card[field] === null,
    ),
    text,
    documents,
  };
}

/**
 * Why a card read from images or PDFs cannot identify the member, or null when it can: the service
 * never goes on with a member id it is not sure of. The message names the documents and the fields not
 * read, and says what the provider can send instead.
 */
export function unreadCardGap(card: ScannedCardFields): CardGap | null {
  if (card.member_id) return null;
  const documents = card.documents.join(', ');
  const identified = card.rx_bin ?? card.rx_pcn ?? card.group_number ?? card.payer_name;
  if (identified || printsCardLabels(card.text)) {
    return {
      code: CASE_FAILURE_CODE.insuranceCardMemberIdUnreadable,
      message:
        `The member ID on the insurance card (${documents}) could not be read with confidence ` +
        `(unread: ${card.unread.join(', ')}). ${CARD_ADVICE}`,
    };
  }
  if (wordCount(card.text) >= NOT_A_CARD_MIN_WORDS) {
    return {
      code: CASE_FAILURE_CODE.insuranceDocumentNotACard,
      message:
        `The insurance documents (${documents}) read clearly but show no insurance card field: they are ` +
        `not insurance cards. Send insurance_content, or an image of the card itself.`,
    };
  }
  return {
    code: CASE_FAILURE_CODE.insuranceCardUnreadable,
    message:
      `No insurance card field could be read from the insurance documents (${documents}): they are too ` +
      `unclear to read, or not cards. ${CARD_ADVICE}`,
  };
}

const CARD_ADVICE = 'Send insurance_content with the missing fields, or a clearer image of the card.';

/** Labels only an insurance card prints, as a reader gives them (`RxBIN`, `RX BIN`, `ID #`, `Member ID`). */
const CARD_LABEL =
  /\b(?:RX ?BIN|RX ?PCN|RX ?GRP|RX ?GROUP|BIN|PCN|MEMBER (?:ID|NUMBER|#)|GROUP (?:NUMBER|NO|ID|#)|ID ?#)(?![A-Z0-9])/g;

/**
 * Whether a document prints two or more of the labels only a card prints: then it is a card whose
 * values could not be read (a photo the readers disagreed on), never "not a card".
 */
function printsCardLabels(text: string): boolean {
  const labels = (text.toUpperCase().match(CARD_LABEL) ?? []).map((label) => label.replace(/^RX ?|\s/g, ''));
  return new Set(labels).size >= 2;
}

/**
 * Words a document must read clearly to be called "not a card" rather than "unreadable": a card front
 * alone prints more, and OCR of an unclear photo yields a few scattered fragments at most.
 */
const NOT_A_CARD_MIN_WORDS = 8;

/** Words of two or more letters: OCR noise of a blurred image is mostly single marks and digits. */
function wordCount(text: string): number {
  let count = 0;
  let letters = 0;
  for (const character of text) {
    if (/\p{L}/u.test(character)) letters += 1;
    else {
      if (letters >= 2) count += 1;
      letters = 0;
    }
  }
  return letters >= 2 ? count + 1 : count;
}
