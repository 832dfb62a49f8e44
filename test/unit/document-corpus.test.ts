import sharp from 'sharp';

import {
  CARD_LAYOUTS,
  cardFaces,
  COLUMN_VALUE_WIDTH,
  HELD_OUT_LAYOUTS,
  MEMBER_FIRST_NAMES,
  MEMBER_LAST_NAMES,
} from '../../bench/document-corpus';
import { BLUE_HORIZON_CARD } from '../support/insurance-cards';

const COLUMN_LAYOUTS = [...CARD_LAYOUTS, ...HELD_OUT_LAYOUTS].filter(
  (layout) => layout.placement === 'below',
);
const NAMES = MEMBER_FIRST_NAMES.flatMap((first) => MEMBER_LAST_NAMES.map((last) => `${first} ${last}`));
/** The widest ids the bench prints: three letters or one, then ten digits. */
const WIDEST_IDS = ['WWW8888888888', 'W8888888888'];
const ROW = 80;

/** The width in pixels of each `<text>` element's ink, each drawn alone on a row of its own. */
async function inkWidths(elements: string[]): Promise<number[]> {
  const rows = elements.map((element, row) =>
    element
      .replace(/ x="\d+" y="\d+"/, ` x="10" y="${row * ROW + 60}"`)
      .replace(/fill="[^"]*"/, 'fill="#000000"'),
  );
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="${rows.length * ROW}"><rect width="100%" height="100%" fill="#ffffff"/>${rows.join('')}</svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return elements.map((_, row) => {
    let [left, right] = [info.width, -1];
    for (let y = row * ROW; y < (row + 1) * ROW; y += 1) {
      for (let x = 0; x < info.width; x += 1) {
        if (data[y * info.width + x]! >= 128) continue;
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
    return right - left + 1;
  });
}

describe('the card corpus', () => {
  it.each(COLUMN_LAYOUTS.map((layout) => [layout.name, layout] as const))(
    'prints every name and the widest ids inside their column on the %s layout',
    async (_name, layout) => {
      const values: string[] = [];
      const elements: string[] = [];
      NAMES.forEach((memberName, index) => {
        const memberId = WIDEST_IDS[index % WIDEST_IDS.length]!;
        const front = cardFaces({ ...BLUE_HORIZON_CARD, memberName, memberId }, layout)[0]!;
        for (const value of [memberName, memberId]) {
          values.push(value);
          elements.push(front.match(new RegExp(`<text[^>]*>${value}</text>`))![0]);
        }
      });

      const widths = await inkWidths(elements);

      const overrunning = values.filter((_, index) => widths[index]! > COLUMN_VALUE_WIDTH);
      expect(overrunning).toEqual([]);
    },
  );
});
