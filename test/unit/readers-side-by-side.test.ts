import sharp from 'sharp';

import { wordsOf } from '../../domain/documents/document-reading';
import { readDocument } from '../../infrastructure/documents/read-document';
import { DEFAULT_READING_LIMITS } from '../../infrastructure/documents/reading-limits';
import { blankPage, lineOf, scriptedReaders, wordAt } from '../support/scripted-readers';

const sureLine = lineOf(
  wordAt('MEMBER', 20, 40, 100),
  wordAt('ID', 140, 40, 30),
  wordAt('W123456789', 200, 40, 160),
  wordAt('GROUP', 400, 40, 80),
);

describe('the two readers of a page', () => {
  it('read it side by side: the second starts while the first is still reading', async () => {
    const events: string[] = [];
    let release: () => void = () => undefined;
    const secondStarted = new Promise<void>((resolve) => (release = resolve));
    const engine = scriptedReaders({
      first: [sureLine],
      second: [],
      async onRecognise() {
        events.push('first reader starts');
        await Promise.race([secondStarted, new Promise((resolve) => setTimeout(resolve, 2_000))]);
        events.push('first reader ends');
      },
      onReadLines() {
        events.push('second reader starts');
        release();
      },
    });
    await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    expect(events).toEqual(['first reader starts', 'second reader starts', 'first reader ends']);
  });

  it('starts the first reader on a level page before the detector has looked for its lines', async () => {
    const events: string[] = [];
    const engine = scriptedReaders({
      first: [sureLine],
      second: [],
      async onRecognise() {
        events.push('first reader starts');
      },
      onDetect() {
        events.push('detector starts');
      },
    });
    await readDocument(await blankPage(), engine, DEFAULT_READING_LIMITS);
    expect(events.slice(0, 2)).toEqual(['first reader starts', 'detector starts']);
  });

  it('keeps the first reader’s reading of the page with its rules taken out, though it began on the page before the detector found them', async () => {
    const engine = scriptedReaders({
      first: async (image) => [lineOf(wordAt((await showsRule(image)) ? 'RXBIN|' : 'RXBIN', 20, 40, 100))],
      second: [],
      // Lines this low make a short run of ink a rule, shorter than the guess before detection allows.
      detected: [{ left: 100, top: 200, width: 400, height: 10 }],
    });
    const reading = await readDocument(await ruledPage(), engine, DEFAULT_READING_LIMITS);
    expect(wordsOf(reading.pages).map((word) => word.text)).toEqual(['RXBIN']);
  });
});

/** A light page with a short hairline rule, as under a small table's header. */
async function ruledPage(): Promise<Buffer> {
  const rule = '<rect x="30" y="190" width="36" height="1" fill="#202020"/>';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="380"><rect width="100%" height="100%" fill="#f4f4f4"/>${rule}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Whether an image the reader is given still shows the rule: its ends alone leave a few dark pixels. */
async function showsRule(image: Buffer): Promise<boolean> {
  const { data } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data.filter((value) => value < 128).length > 100;
}
