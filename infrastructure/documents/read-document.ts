import type { Sharp } from 'sharp';

import { describeUnknownFormat, detectDocumentFormat } from '../../domain/documents/document-format';
import {
  boxAround,
  CONTENT_TYPES,
  meanConfidence,
  notRead,
  wordsOf,
} from '../../domain/documents/document-reading';
import type {
  Box,
  DocumentFormat,
  DocumentReading,
  PagePreview,
  ReadLine,
  ReadPage,
  ReadWord,
  ReadingMethod,
  UnreadPage,
} from '../../domain/documents/document-reading';
import {
  sameRegion,
  splitAfterLabel,
  verticallyWithin,
  wordsInRegion,
} from '../../domain/payers/card-agreement';
import { identifierCore } from '../../domain/payers/card-fields';
import { CARD_SEARCH_SIDE, cardShaped, findCardCorners, flattened, photoQuad } from './card-corners';
import { levelled } from './deskew';
import { glarePatches } from './glare';
import { atCellWalls, isSpeckled, medianGrey, withoutRules } from './page-cleaning';
import { pagePreview } from './page-preview';
import type { OcrEngine } from './ocr-engine';
import { runningDown } from './text-boxes';
import { readPdfPages } from './pdf-pages';
import { encodedGrey, greyImageOf } from './grey-image';
import type { GreyImage } from './grey-image';
import { zeroOrLetterO } from './zero-or-letter-o';
import type { DocumentReadingLimits, PageListener } from './reading-limits';

/**
 * Text is used as sent, wherever it is used: its reading records only that it is text, so a 10 MB chart
 * export costs no word list to build, seal and store.
 */
const TEXT_READING: DocumentReading = {
  format: 'text',
  contentType: CONTENT_TYPES.text,
  status: 'read',
  method: 'text',
  pageCount: 1,
  pages: [],
  unread: [],
  confidence: 1,
  reason: null,
};

/** Below this mean confidence, or with fewer words, the second reader is asked which way up the image is. */
const UNSURE_CONFIDENCE = 0.75;
const FEW_WORDS = 4;
/** The long side, in pixels, a card found in a photo is read at: about 400 dpi across an ID-1 card. */
const CARD_LONG_SIDE = 1400;
/** Twice as much print running down as across: the page lies on its side. */
const SIDEWAYS = 2;
/** A prepared image darker than this on average (0–255) is light print on a dark ground. */
const DARK_MEAN = 110;

/**
 * Reads a document's bytes: UTF-8 text as sent, a PDF's text layer page by page, and pixels (images,
 * and PDF pages without a usable text layer) through OCR. Runs in a reading thread (reading-thread.ts).
 */
export async function readDocument(
  bytes: Buffer,
  ocr: OcrEngine,
  limits: DocumentReadingLimits,
  onPage: PageListener = () => undefined,
): Promise<DocumentReading> {
  const format = detectDocumentFormat(bytes);
  switch (format) {
    case 'text':
      return TEXT_READING;
    case 'pdf':
      return readPdf(bytes, ocr, limits, onPage);
    case 'unknown':
      return notRead(format, 'unsupported', `The document is ${describeUnknownFormat(bytes)}.`);
    default:
      return readImage(bytes, format, ocr, limits, onPage);
  }
}

/** The reading of the pages read so far: `partly_read` when some were not, `unreadable` when none was. */
export function summarise(
  format: DocumentFormat,
  pages: ReadPage[],
  unread: UnreadPage[],
  pageCount: number,
): DocumentReading {
  const withWords = pages.filter((page) => page.lines.length > 0);
  const methods = new Set(pages.map((page) => page.method));
  const method: ReadingMethod | null =
    methods.size === 0 ? null : methods.size > 1 ? 'mixed' : ([...methods][0] as ReadingMethod);
  const status =
    withWords.length === 0 ? 'unreadable' : unread.length > 0 ? 'partly_read' : ('read' as const);
  const reason =
    withWords.length === 0
      ? (unread[0]?.reason ?? 'No text was found in the document.')
      : unread.length > 0
        ? `${unread.length} of ${pageCount} pages were not read: ${unread[0].reason}`
        : null;
  return {
    format,
    contentType: CONTENT_TYPES[format],
    status,
    method,
    pageCount,
    pages,
    unread,
    confidence: meanConfidence(wordsOf(pages)),
    reason,
  };
}

async function readImage(
  bytes: Buffer,
  format: DocumentFormat,
  ocr: OcrEngine,
  limits: DocumentReadingLimits,
  onPage: PageListener,
): Promise<DocumentReading> {
  const sharp = (await import('sharp')).default;
  let pageCount: number;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: limits.maxInputPixels }).metadata();
    pageCount = metadata.pages ?? 1;
    if ((metadata.width ?? 0) * (metadata.height ?? 0) > limits.maxInputPixels) {
      return notRead(format, 'unreadable', tooManyPixels(metadata.width, metadata.height, limits));
    }
  } catch (error) {
    return notRead(format, 'unreadable', imageFailure(format, error, limits));
  }
  const pages: ReadPage[] = [];
  const unread: UnreadPage[] = [];
  const previews: PagePreview[] = [];
  for (let index = 0; index < pageCount; index += 1) {
    const number = index + 1;
    if (index >= limits.maxOcrPages) {
      unread.push({ number, reason: `only the first ${limits.maxOcrPages} pages of a document are read` });
      continue;
    }
    try {
      const image = sharp(bytes, { page: index, limitInputPixels: limits.maxInputPixels });
      const page = await recogniseImage(image, number, ocr, limits, 'photo');
      pages.push(page);
      onPage(page);
      if (number <= limits.previewPages) previews.push(await pagePreview(bytes, number, limits, index));
    } catch (error) {
      unread.push({ number, reason: imageFailure(format, error, limits) });
    }
  }
  return { ...summarise(format, pages, unread, pageCount), previews };
}

/**
 * Normalises an image for recognition (EXIF orientation, a photographed card or sheet found on its desk
 * and warped flat, grayscale, a fax's speckle removed with a
 * 3 × 3 median that keeps strokes wider than a dot, stretched contrast, brought to a
 * long side the recogniser reads well, inverted when it is light on dark, levelled when its print is
 * askew), then recognises it. An unsure result asks the second reader which way up the print stands
 * (its detector and recogniser, far cheaper than three more pages of Tesseract), and a turned image is
 * recognised again, the surer reading kept; the second reader then reads the kept image too.
 */
async function recogniseImage(
  image: Sharp,
  number: number,
  ocr: OcrEngine,
  limits: DocumentReadingLimits,
  source: PixelSource,
): Promise<ReadPage> {
  const sharp = (await import('sharp')).default;
  // A fax line's speckle is looked for at the page's own resolution, where a dot is one pixel.
  const grey = await image.clone().rotate().grayscale().raw().toBuffer({ resolveWithObject: true });
  const flat = source === 'photo' ? await cardOf(image, grey) : null;
  const native = flat ?? grey;
  // A card found and warped fills the image: brought to the long side a whole photo is, its letters
  // would stand half again as tall as a recogniser reads best (Tesseract then reads a serif `0` as `O0`).
  // A sheet keeps the page's long side.
  const longSide = flat?.card ? Math.min(limits.ocrLongSide, CARD_LONG_SIDE) : limits.ocrLongSide;
  const raw = { raw: { width: native.info.width, height: native.info.height, channels: 1 as const } };
  const speckled = isSpeckled(native.data, native.info.width, native.info.height);
  // Resized, then its contrast stretched on the resized pixels, in two pipelines: in one, the stretch's
  // measuring pass ran the resize a second time (97 ms a card face against 80 ms, the same pixels).
  // Stretched before the resize, the pages read worse (a scanned letter lost a tenth of its words).
  const resized = await (speckled ? sharp(native.data, raw).median(3) : sharp(native.data, raw))
    .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: false })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  // One grey channel, measured as it is and encoded once: every step after this reads grey, and an RGB
  // copy of the same values took three times the bytes to encode and a decode to measure.
  const { data: pixels, info } = await sharp(resized.data, {
    raw: { width: resized.info.width, height: resized.info.height, channels: 1 },
  })
    .normalise()
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  // Light print on a dark card reads as dark print once inverted, which is what the recogniser expects.
  const inverted = meanGrey(pixels) < DARK_MEAN;
  if (inverted) for (let index = 0; index < pixels.length; index += 1) pixels[index] = 255 - pixels[index];
  const prepared = await encodedGrey({ pixels, width: info.width, height: info.height });
  let standing = prepared;
  let { image: bestImage, lines: bestBoxes } = await cleaned(await levelled(standing, sharp), ocr);
  // Print the detector finds running down, clearly more than across, is a page on its side: it is
  // stood up before Tesseract reads it, not after a reading of it sideways.
  const sideways = bestBoxes.length >= FEW_WORDS && runningDown(bestBoxes) >= SIDEWAYS;
  if (sideways) {
    const turn = await ocr.orientation(bestImage, bestBoxes);
    standing = await sharp(prepared).rotate(turn).png({ compressionLevel: 1 }).toBuffer();
    ({ image: bestImage, lines: bestBoxes } = await cleaned(await levelled(standing, sharp), ocr));
  }
  // The second reader reads the very image the first reads, so their words share one set of
  // coordinates; Tesseract reads in a thread of its own, so the two read side by side.
  let [best, second] = await bothReaders(ocr, bestImage, bestBoxes, number);
  const turn = sideways || isSure(best) ? 0 : await ocr.orientation(bestImage, bestBoxes);
  if (turn !== 0) {
    const turned = await sharp(standing).rotate(turn).png({ compressionLevel: 1 }).toBuffer();
    const turnedPage = await cleaned(await levelled(turned, sharp), ocr);
    const [candidate, candidateLines] = await bothReaders(ocr, turnedPage.image, turnedPage.lines, number);
    if (score(candidate) > score(best)) {
      [best, second, bestImage] = [candidate, candidateLines, turnedPage.image];
    }
  }
  const found: ReadLine[] = [];
  const reread: Box[] = [];
  const readNothing: Box[] = [];
  const readUnsure: Box[] = [];
  for (const region of missedRegions(best.lines, second)) {
    const read = best.lines.some((line) => line.words.some((word) => sameRegion(word.box, region)));
    (read ? readUnsure : readNothing).push(region);
  }
  // Regions where the first reader read nothing at all, as before; those where it read only words it
  // was unsure of, up to MOST_UNSURE_REREADS, so a page of such words never runs out its time.
  const toRead = [...readNothing, ...readUnsure.slice(0, MOST_UNSURE_REREADS)];
  for (const region of toRead) {
    const line = await ocr.readRegion(bestImage, region);
    if (line) {
      found.push(line);
      reread.push(region);
    }
  }
  const lines = found.length
    ? inReadingOrder([...withoutUnsureIn(best.lines, reread), ...found])
    : best.lines;
  const page = { ...best, lines: await settledIdentifiers(bestImage, lines, second, ocr), second };
  if (source !== 'photo') return page;
  const kept = await greyImageOf(bestImage);
  const glare = glarePatches(kept.pixels, kept.width, kept.height, inverted);
  return glare.length ? { ...page, glare } : page;
}

function meanGrey(pixels: Uint8Array): number {
  let sum = 0;
  for (let index = 0; index < pixels.length; index += 1) sum += pixels[index];
  return sum / Math.max(1, pixels.length);
}

/** Tesseract's page and the second reader's lines of one prepared image, read side by side. */
function bothReaders(
  ocr: OcrEngine,
  image: Buffer,
  lines: readonly Box[],
  number: number,
): Promise<[ReadPage, ReadLine[]]> {
  return Promise.all([ocr.recognise(image, number), ocr.readLines(image, lines)]);
}

/**
 * Where a page's pixels come from: an image sent may be a photo of a card or a sheet on a desk; a PDF
 * page drawn from its vectors is the page itself, and a box printed on it is never taken for a card.
 */
type PixelSource = 'photo' | 'rendered';

/**
 * The card (or sheet) in a photo, found on a small colour copy and warped flat out of the grey photo,
 * or null where no card's edges stand out against what it lies on (a scan edge to edge, a page).
 */
async function cardOf(
  image: Sharp,
  grey: { data: Buffer; info: { width: number; height: number } },
): Promise<{ data: Uint8Array; info: { width: number; height: number }; card: boolean } | null> {
  const small = await image
    .clone()
    .rotate()
    .resize({ width: CARD_SEARCH_SIDE, height: CARD_SEARCH_SIDE, fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const quad = findCardCorners({ ...small.info, data: small.data });
  if (!quad) return null;
  const card = flattened(
    grey.data,
    grey.info.width,
    grey.info.height,
    photoQuad(quad, grey.info.width / small.info.width),
  );
  return { data: card.data, info: { width: card.width, height: card.height }, card: cardShaped(quad) };
}

/**
 * The heights, in pixels, an identifier the readers differ on is read again at: Tesseract doubles or
 * drops a character at one size and not at another (`ZZBHHO0…` for `ZZBHH0…` in a serif face).
 */
const REREAD_HEIGHTS = [96, 64, 144];
/** Readings of the three that must give the second reader's value for it to replace the first's. */
const REREADS_AGREEING = 2;
/** Identifiers read again on one page at most: a page of codes never runs out its time limit this way. */
const MOST_REREADS = 8;
/**
 * Characters two readings of an identifier may differ by, one for one, and still be read again:
 * Tesseract's page reading gives `I` for a `J` that PP-OCR and Tesseract's reading of the line alone,
 * at every size, read right. Such a reading replaces the first reader's only where all three rereads
 * give it.
 */
const MOST_SUBSTITUTED = 1;

/**
 * Whether two readings of one length differ by at most MOST_SUBSTITUTED characters, none of them a
 * pair OCR gives for one another (O for 0, S for 5…): both engines confuse those, so a reread that
 * gives the other one settles nothing.
 */
function settleableSubstitution(read: string, wanted: string): boolean {
  let count = 0;
  for (let index = 0; index < read.length; index += 1) {
    if (read[index] === wanted[index]) continue;
    count += 1;
    const pair = read[index] + wanted[index];
    if (LOOK_ALIKES.some((each) => each === pair || each === pair[1] + pair[0])) return false;
  }
  return count <= MOST_SUBSTITUTED;
}

/** Print that may be an identifier: four letters or digits or more, one a digit. */
function identifierLike(text: string): boolean {
  const core = identifierCore(text).replace(/-/g, '');
  return core.length >= 4 && /\d/.test(core);
}

/** No card value holds a bracket: where the first reader gave one, it misread a letter. */
const BRACKET = /[()[\]{}]/;

/**
 * Whether the readers' readings of a value printed in capitals (a PCN, a name) call for rereads: the
 * first reader gave a bracket for a letter (`YD)`, `GT]JTN` for `YDJ`, `GTJTN`: Tesseract's page
 * reading gives a `J` so in some faces), or one letter for another that OCR does not confuse with it
 * (`DJKUIYN` for `DJKUJYN`). The first reader's reading is then never used as it is; only rereads of
 * the line, which give neither brackets nor lower case, settle it. A value printed in lower case is
 * never reread, for that reason.
 */
function lettersToSettle(firstText: string, printed: string): boolean {
  const wanted = identifierCore(printed);
  if (printed !== wanted || !/^[A-Z0-9]{3,}$/.test(wanted)) return false;
  const read = identifierCore(firstText);
  return BRACKET.test(firstText) || (read.length === wanted.length && settleableSubstitution(read, wanted));
}

/**
 * The first reader's lines (each label run into its value split from it, as the card reader reads
 * them), where it read an identifier with a character more or fewer than the second reader did, read
 * again: the second reader's box of it, cut out and read by Tesseract as one line of identifier
 * characters at three sizes. Where at least two of those readings are the second reader's value, they
 * replace the first reader's words there: Tesseract's page segmentation doubles or drops a character
 * the line reading does not (`ZZBHHO0…`). One such reading is enough where the first reader's text is
 * the second's with one character doubled as its look-alike (`O0` for `0`), the way Tesseract gives a
 * wide glyph of some faces at every size. Where the first reader read one character as another
 * (`INH…` for `JNH…`), all three rereads must give the second reader's value, and a look-alike pair
 * is never settled so. The one look-alike settled is the first reader's letter O for the second's
 * digit 0, and only by the glyph's width against the word's own digits; otherwise the readers still
 * disagree, and the field is unread. A closing bracket the first reader gave for the second's J, and
 * nothing else apart, is settled without rereads (`bracketForJ`). A first reading boxed wider than
 * the second's (`readingsCovering`) is settled only by rereads of the whole of it, two of three
 * agreeing, or all three where the lengths are alike.
 */
async function settledIdentifiers(
  image: Buffer,
  first: readonly ReadLine[],
  second: readonly ReadLine[],
  ocr: OcrEngine,
): Promise<ReadLine[]> {
  let lines = first.map((line) => ({ ...line, words: line.words.flatMap(splitAfterLabel) }));
  // Identifiers first: they draw on the page's budget of rereads before the capitals of a name or PCN.
  const words = second
    .flatMap((line) => line.words.flatMap(splitAfterLabel))
    .sort((a, b) => Number(identifierLike(b.text)) - Number(identifierLike(a.text)));
  let rereads = 0;
  let grey: Promise<GreyImage> | undefined;
  for (const word of words) {
    const wanted = identifierCore(word.text);
    const inside = wordsInRegion(lines, word.box);
    const covering = inside.length > 0 ? [] : readingsCovering(lines, word.box, wanted);
    const there = inside.length > 0 ? inside : covering;
    const firstText = there.map((each) => each.text).join('');
    const read = identifierCore(firstText);
    const substituted = read.length === wanted.length;
    // A value read alike is left as the first reader boxed it: what its wider box holds beyond the
    // second reader's still runs on, or not, when the card reader compares them.
    if (read === wanted) continue;
    if (!identifierLike(word.text) && !lettersToSettle(firstText, word.text)) continue;
    // A wider reading holds a rule or a mark beside the value, which may be its bracket or its wide
    // glyph: only rereads of the whole of it settle it.
    if (covering.length === 0 && bracketForJ(firstText, wanted)) {
      lines = withWordsReplaced(lines, there, readAs(there, wanted));
      continue;
    }
    const at = substituted && covering.length === 0 ? onlyDifference(read, wanted) : undefined;
    if (at !== undefined && read[at] === 'O' && wanted[at] === '0') {
      grey ??= greyImageOf(image);
      const replacement = readAs(there, wanted);
      if (zeroOrLetterO(await grey, replacement.box, read, at) === '0')
        lines = withWordsReplaced(lines, there, replacement);
      continue;
    }
    if (substituted && !settleableSubstitution(read, wanted)) continue;
    if (rereads >= MOST_REREADS) continue;
    rereads += 1;
    // A wider first reading is read again whole, so print it saw past the second reader's box counts.
    const rereadRegion = boxAround([word.box, ...covering.map((each) => each.box)]);
    const agreeing: ReadWord[] = [];
    for (const height of REREAD_HEIGHTS) {
      const reread = await ocr.readRegion(image, rereadRegion, 'identifier', height);
      const text = reread?.words.map((each) => each.text).join('') ?? '';
      if (identifierCore(text) !== wanted) continue;
      agreeing.push({
        text,
        confidence: Math.min(...reread!.words.map((each) => each.confidence)),
        box: word.box,
      });
    }
    const settled = substituted
      ? agreeing.length === REREAD_HEIGHTS.length
      : agreeing.length >= REREADS_AGREEING ||
        (agreeing.length > 0 && covering.length === 0 && doubledLookAlike(read, wanted));
    if (settled) lines = withWordsReplaced(lines, there, agreeing[0]);
  }
  return lines;
}

/**
 * Where no word of the first reader lies mostly inside a region, its words on the region's line that
 * overlap at least half of the narrower of the two: its reading of the same print, boxed wider (`RX336`
 * reaching over a table's rule where PP-OCR read `RX3316`), a character or two apart in length. Left
 * out, a reread's value stood on a line of its own beside the first reading, which then ran on from
 * it. A word longer still holds more than the value (a label of three letters or more run in,
 * `RxGRPRX1083`) and is not replaced.
 */
function readingsCovering(lines: readonly ReadLine[], region: Box, wanted: string): ReadWord[] {
  return lines
    .flatMap((line) => line.words)
    .filter(
      (word) =>
        verticallyWithin(word.box, region) &&
        sameRegion(word.box, region) &&
        Math.abs(identifierCore(word.text).length - wanted.length) <= MOST_LENGTH_APART,
    )
    .sort((a, b) => a.box.left - b.box.left);
}

/** How many characters longer or shorter a wider reading of a value may be and still be the value. */
const MOST_LENGTH_APART = 2;

/** The first reader's words of a value as one word giving `text`, as sure as the least sure of them. */
function readAs(words: readonly ReadWord[], text: string): ReadWord {
  return {
    text,
    confidence: Math.min(...words.map((each) => each.confidence)),
    box: boxAround(words.map((each) => each.box)),
  };
}

/**
 * Whether the first reader's reading is the second's with one letter J given as a closing bracket, and
 * nothing else apart (`NV]`, `FAAVWX)`, `Y)BBAAA` for `NVJ`, `FAAVWXJ`, `YJBBAAA`): Tesseract's page
 * reading gives a J so in some faces (DejaVu Sans and its condensed cut), and read alone as a line of
 * identifier characters, which hold no bracket, it gives other letters or drops it, so rereads settle
 * nothing. No card value holds a bracket, and over every installed face, the letters it was drawn
 * beside a J in, only a J gave Tesseract a closing bracket where PP-OCR read a J (docs/documents.md).
 */
function bracketForJ(firstText: string, wanted: string): boolean {
  const read = firstText.toUpperCase();
  const at = read.length === wanted.length ? onlyDifference(read, wanted) : undefined;
  return at !== undefined && CLOSING_BRACKETS.has(read[at]) && wanted[at] === 'J';
}

const CLOSING_BRACKETS: ReadonlySet<string> = new Set([']', ')']);

/** Where two readings of one length differ, if at one place only. */
function onlyDifference(read: string, wanted: string): number | undefined {
  const differing = [...read].flatMap((character, index) => (character === wanted[index] ? [] : [index]));
  return differing.length === 1 ? differing[0] : undefined;
}

/** Characters OCR gives for one another, each pair written once. */
const LOOK_ALIKES = ['O0', 'Q0', 'D0', 'I1', 'L1', 'S5', 'B8', 'Z2', 'G6'];

/**
 * Whether `read` is `wanted` with one character doubled as its look-alike (`ZZBHHO000…` for
 * `ZZBHH000…`): Tesseract's line recogniser gives a wide glyph twice, as two classes, in some faces.
 */
export function doubledLookAlike(read: string, wanted: string): boolean {
  if (read.length !== wanted.length + 1) return false;
  for (let index = 0; index < read.length; index += 1) {
    if (read.slice(0, index) + read.slice(index + 1) !== wanted) continue;
    const extra = read[index];
    const beside = [read[index - 1], read[index + 1]].filter((character) => character !== undefined);
    if (
      beside.some((character) =>
        LOOK_ALIKES.some((pair) => pair === extra + character || pair === character + extra),
      )
    ) {
      return true;
    }
  }
  return false;
}

/** Lines with some words taken out and one word put in their place (or on a line of its own). */
function withWordsReplaced(lines: ReadLine[], old: readonly ReadWord[], word: ReadWord): ReadLine[] {
  const gone = new Set(old);
  let placed = false;
  const kept = lines
    .map((line) => {
      if (!line.words.some((each) => gone.has(each))) return line;
      const words = line.words.filter((each) => !gone.has(each));
      if (!placed) {
        placed = true;
        words.push(word);
        words.sort((a, b) => a.box.left - b.box.left);
      }
      return { ...line, words };
    })
    .filter((line) => line.words.length > 0);
  return placed ? kept : inReadingOrder([...kept, { words: [word], box: word.box }]);
}

/**
 * Runs of ink this many times the page's usual line height across, or this many times its tallest
 * line's height down, are rules: the detector's line boxes hold a line's letters with a margin, so no
 * letter reaches either, not even a card's large title beside its small labels.
 */
const RULE_ACROSS_LINES = 6;
const RULE_DOWN_LINES = 1.5;
/** A page whose middle grey is at least this light (0–255) is light ground with print on it. */
const LIGHT_GROUND = 180;

/**
 * A page as the readers should see it: its rules made ground, measured against the height of its own
 * lines of print so a card's large title is never taken for a rule.
 */
async function cleaned(image: Buffer, ocr: OcrEngine): Promise<{ image: Buffer; lines: Box[] }> {
  const { pixels, width, height } = await greyImageOf(image);
  // The detector's lines are found once: removing rules moves no print, so the second reader reads
  // the cleaned page in the same boxes, and which way up the page stands is judged from them.
  const lines = atCellWalls(await ocr.detect(image), pixels, width);
  // Rules are told from ground only on a light page (paper, a pale card): on a mid-grey or gradient
  // ground whole rows would pass for ink. There each line read on its own loses its rules instead.
  if (medianGrey(pixels) < LIGHT_GROUND) return { image, lines };
  const heights = lines.map((box) => box.height).sort((a, b) => a - b);
  if (heights.length === 0) return { image, lines };
  const ruled = withoutRules(pixels, width, height, {
    across: Math.ceil(RULE_ACROSS_LINES * heights[Math.floor(heights.length / 2)]),
    down: Math.ceil(RULE_DOWN_LINES * heights[heights.length - 1]),
  });
  return { image: await encodedGrey({ pixels: ruled, width, height }), lines };
}

/** Words of the second reader this close together (in letter heights) are one region for the first. */
const REGION_GAP = 1.5;

/**
 * Below this confidence, a word of the first reader's page reading is no reading of the print there:
 * Tesseract gives a ruled table's value row, which PP-OCR reads cell by cell, as `Covisios` or `sssss2`
 * at 0, and a photo's cell `RX5263` as `BXS263` at 0. Its place is read again as a missed region.
 */
const NOTHING_READ = 0.1;
/** Regions read again on one page for words read under NOTHING_READ, at most (a card has a few). */
const MOST_UNSURE_REREADS = 16;

/**
 * Where the detector found print that the first reader's page segmentation left unread (small grey
 * labels, a table's cells, white print on a gradient) or read as nothing it was sure of
 * (`NOTHING_READ`): runs of the second reader's words, row by row, with none of the first reader's
 * words on them. The first reader then reads each as a line of its own.
 */
export function missedRegions(first: readonly ReadLine[], second: readonly ReadLine[]): Box[] {
  const regions: Box[] = [];
  for (const row of second) {
    let run: ReadWord[] = [];
    const close = () => {
      if (run.length > 0) regions.push(boxAround(run.map((word) => word.box)));
      run = [];
    };
    for (const word of row.words) {
      // A label's lone `:` or `#` holds nothing to read: read as a line of its own, Tesseract gives
      // a speck of print beside the value (`Es` for `ID # : KHD 389`), which then runs on into it.
      if (!/[A-Za-z0-9]/.test(word.text)) continue;
      // A word the first reader ran into a rule's remnant (`"BIN`) still covers the one found here.
      const covering = (read: ReadWord) => read.confidence >= NOTHING_READ && sameRegion(read.box, word.box);
      if (first.some((line) => line.words.some(covering))) {
        close();
        continue;
      }
      const previous = run[run.length - 1];
      if (
        previous &&
        word.box.left - (previous.box.left + previous.box.width) > REGION_GAP * word.box.height
      ) {
        close();
      }
      run.push(word);
    }
    close();
  }
  return regions;
}

/**
 * The first reader's lines without the words it read as nothing (`NOTHING_READ`) where a region was read
 * again: the reread's words stand for that print, and the page reading's would run on from them.
 */
export function withoutUnsureIn(lines: readonly ReadLine[], regions: readonly Box[]): ReadLine[] {
  const replaced = (word: ReadWord) =>
    word.confidence < NOTHING_READ && regions.some((region) => sameRegion(word.box, region));
  return lines.flatMap((line) => {
    const words = line.words.filter((word) => !replaced(word));
    if (words.length === line.words.length) return [line];
    return words.length > 0 ? [{ words, box: boxAround(words.map((word) => word.box)) }] : [];
  });
}

/** Lines top to bottom by their middles, as the card reader takes them. */
function inReadingOrder(lines: ReadLine[]): ReadLine[] {
  const middle = (line: ReadLine) => line.box.top + line.box.height / 2;
  return [...lines].sort((a, b) => middle(a) - middle(b) || a.box.left - b.box.left);
}

function isSure(page: ReadPage): boolean {
  const words = wordsOf([page]);
  return words.length >= FEW_WORDS && (page.confidence ?? 0) >= UNSURE_CONFIDENCE;
}

/** Confident words outweigh many unsure ones: a sideways card yields many low-confidence fragments. */
function score(page: ReadPage): number {
  return wordsOf([page]).filter((word) => word.confidence >= 0.8).length + (page.confidence ?? 0);
}

async function readPdf(
  bytes: Buffer,
  ocr: OcrEngine,
  limits: DocumentReadingLimits,
  onPage: PageListener,
): Promise<DocumentReading> {
  const result = await readPdfPages(
    bytes,
    limits,
    async (render, number) => {
      const sharp = (await import('sharp')).default;
      const image = sharp(await render(), { limitInputPixels: limits.maxInputPixels });
      return recogniseImage(image, number, ocr, limits, 'rendered');
    },
    onPage,
  );
  if ('failure' in result) return notRead('pdf', 'unreadable', result.failure, result.pageCount);
  return { ...summarise('pdf', result.pages, result.unread, result.pageCount), previews: result.previews };
}

function tooManyPixels(
  width: number | undefined,
  height: number | undefined,
  limits: DocumentReadingLimits,
): string {
  return (
    `The image is ${width ?? '?'} × ${height ?? '?'} pixels, over the ${limits.maxInputPixels.toLocaleString('en-US')}` +
    '-pixel limit of one image, so it was not decoded.'
  );
}

/** Why an image did not decode, in words that name no content. */
function imageFailure(format: DocumentFormat, error: unknown, limits: DocumentReadingLimits): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return `The image is over the ${limits.maxInputPixels.toLocaleString('en-US')}-pixel limit of one image, so it was not decoded.`;
  }
  return `The ${format.toUpperCase()} image could not be decoded (truncated or corrupt).`;
}
