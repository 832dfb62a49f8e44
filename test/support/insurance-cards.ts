import { BLUE_HORIZON_CARD, CARD_LAYOUTS, cardFaces, renderFace } from '../../bench/document-corpus';
import type { CardValues } from '../../bench/document-corpus';

export { BLUE_HORIZON_CARD };

/** The front of a card as a clinic photographs it, a clean PNG in the corpus's first layout. */
export async function cardImage(values: Partial<CardValues> = {}): Promise<Buffer> {
  return renderFace(cardFaces({ ...BLUE_HORIZON_CARD, ...values }, CARD_LAYOUTS[0])[0]);
}
