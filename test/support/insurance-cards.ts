import { CARD_LAYOUTS, cardFaces, renderFace } from '../../bench/document-corpus';
import type { CardValues } from '../../bench/document-corpus';

/**
 * A card of the sandbox catalog's Blue Horizon Health PPO Select plan. Its member id has no Z: the
 * sandbox's ZZ ids read as 22 under OCR, as they would on a real card.
 */
export const BLUE_HORIZON_CARD: CardValues = {
  payerName: 'Blue Horizon Health',
  planName: 'PPO Select',
  memberName: 'JANE Q SAMPLE',
  memberId: 'W123456789',
  groupNumber: '0100',
  rxBin: '999901',
  rxPcn: 'SBXBHHPPO',
  rxGroup: 'SBXBHH0100',
};

/** The front of a card as a clinic photographs it, a clean PNG in the corpus's first layout. */
export async function cardImage(values: Partial<CardValues> = {}): Promise<Buffer> {
  return renderFace(cardFaces({ ...BLUE_HORIZON_CARD, ...values }, CARD_LAYOUTS[0])[0]);
}
