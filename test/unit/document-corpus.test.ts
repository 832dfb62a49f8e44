import sharp from 'sharp';

import { CARD_LAYOUTS, cardFaces, HELD_OUT_LAYOUTS } from '../../bench/document-corpus';
import { BLUE_HORIZON_CARD } from '../support/insurance-cards';

const COLUMN_PITCH = 320;
const COLUMN_LAYOUTS = [...CARD_LAYOUTS, ...HELD_OUT_LAYOUTS].filter(
  (layout) => layout.placement === 'below',
);

/** The longest name and id the bench prints, each of the widest letters its alphabet holds. */
const LONGEST = { ...BLUE_HORIZON_CARD, memberName: 'AMARA HALVORSEN', memberId: 'WWW8888888888' };

/** The width in pixels of the ink a face's `<text>` element holds, drawn alone in black on white. */
async function inkWidth(element: string): Promise<number> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="80"><rect width="100%" height="100%" fill="#ffffff"/>${element.replace(/ x="\d+" y="\d+"/, ' x="10" y="60"').replace(/fill="[^"]*"/, 'fill="#000000"')}</svg>`;
  const { info } = await sharp(Buffer.from(svg)).trim().toBuffer({ resolveWithObject: true });
  return info.width;
}

describe('the card corpus', () => {
  it.each(COLUMN_LAYOUTS.map((layout) => [layout.name, layout] as const))(
    'prints the longest name and id clear of the next column on the %s layout',
    async (_name, layout) => {
      const front = cardFaces(LONGEST, layout)[0]!;
      const valueOf = (value: string) => front.match(new RegExp(`<text[^>]*>${value}</text>`))![0];

      expect(await inkWidth(valueOf(LONGEST.memberName))).toBeLessThan(COLUMN_PITCH - 10);
      expect(await inkWidth(valueOf(LONGEST.memberId))).toBeLessThan(COLUMN_PITCH - 10);
    },
  );
});
