import { decodeCtc, rowsOf, wordsOf } from '../../infrastructure/documents/paddle-engine';
import { isLightOnDark, lineForRecognition } from '../../infrastructure/documents/line-polarity';
import { atCellWalls, isSpeckled, withoutRules } from '../../infrastructure/documents/page-cleaning';
import { missedRegions, withoutUnsureIn } from '../../infrastructure/documents/read-document';
import { findTextBoxes } from '../../infrastructure/documents/text-boxes';
import type { ReadLine } from '../../domain/documents/document-reading';

/** A grey line of `width` × `height` on `ground`, with a block of `ink` standing for letters. */
function line(width: number, height: number, ground: number, ink: number): Uint8Array {
  const pixels = new Uint8Array(width * height).fill(ground);
  for (let y = Math.floor(height / 3); y < Math.floor((2 * height) / 3); y += 1) {
    for (let x = Math.floor(width / 4); x < Math.floor(width / 2); x += 2) pixels[y * width + x] = ink;
  }
  return pixels;
}

describe('the polarity of each line', () => {
  it('calls white print on a dark ground light on dark', () => {
    expect(isLightOnDark(line(60, 20, 40, 250), 60, 20)).toBe(true);
  });

  it('calls dark print on a pale ground dark on light', () => {
    expect(isLightOnDark(line(60, 20, 230, 20), 60, 20)).toBe(false);
  });

  it('is not misled by a white table rule around white print on blue', () => {
    const pixels = line(60, 20, 60, 250);
    pixels.fill(250, 0, 60);
    pixels.fill(250, 19 * 60, 20 * 60);
    expect(isLightOnDark(pixels, 60, 20)).toBe(true);
  });

  it('gives the recogniser dark print on a white ground, stretched to the full range', () => {
    const prepared = lineForRecognition(line(60, 20, 90, 160), 60, 20);
    expect(prepared[0]).toBe(255);
    expect(Math.min(...prepared)).toBe(0);
  });
});

describe('table rules', () => {
  it('removes a rule across the line and one down it, and keeps the letters', () => {
    const width = 40;
    const height = 20;
    const pixels = Buffer.alloc(width * height, 255);
    pixels.fill(0, 2 * width, 3 * width);
    for (let y = 0; y < height; y += 1) pixels[y * width + 1] = 0;
    pixels[10 * width + 20] = 0;
    const cleaned = withoutRules(pixels, width, height, { across: 30, down: 15 });
    expect(cleaned[2 * width + 10]).toBe(255);
    expect(cleaned[15 * width + 1]).toBe(255);
    expect(cleaned[10 * width + 20]).toBe(0);
  });

  it("removes a table's cell walls between its rules, though shorter than a rule down, and keeps a stroke as tall", () => {
    const width = 60;
    const height = 40;
    const pixels = Buffer.alloc(width * height, 255);
    for (const row of [5, 25]) pixels.fill(0, row * width + 2, row * width + 58);
    for (let y = 5; y <= 25; y += 1) pixels[y * width + 30] = 0;
    for (let y = 8; y <= 28; y += 1) pixels[y * width + 12] = 0;
    const cleaned = withoutRules(pixels, width, height, { across: 40, down: 30 });
    expect(cleaned[15 * width + 30]).toBe(255);
    expect(cleaned[15 * width + 12]).toBe(0);
  });
});

describe("a table's cells in one detected box", () => {
  const width = 120;
  const height = 30;
  const box = { left: 0, top: 0, width, height };
  /** A row of cells on `ground`: a block of `ink` for each cell's print, and a wall between cells. */
  function cells(ground: number, ink: number, walls: readonly number[], [wallTop, wallBottom] = [0, height]) {
    const pixels = new Uint8Array(width * height).fill(ground);
    for (let y = 10; y < 20; y += 1) {
      for (const left of [5, 50, 90]) pixels.fill(ink, y * width + left, y * width + left + 20);
    }
    for (const x of walls) for (let y = wallTop; y < wallBottom; y += 1) pixels[y * width + x] = ink;
    return pixels;
  }

  it('are read cell by cell, parted at the walls between them', () => {
    const parted = atCellWalls([box], cells(230, 20, [38, 80]), width);
    expect(parted.map(({ left, width: cellWidth }) => [left, left + cellWidth])).toEqual([
      [0, 38],
      [39, 80],
      [81, 120],
    ]);
  });

  it('are parted at white walls on a dark card too', () => {
    expect(atCellWalls([box], cells(40, 250, [38, 80]), width)).toHaveLength(3);
  });

  it("are parted where the box reaches past the table's rule, beyond the walls' ends", () => {
    expect(atCellWalls([box], cells(230, 20, [38, 80], [0, 21]), width)).toHaveLength(3);
  });

  it('are parted at a wall drawn off the pixel grid, half in one column and half in the next', () => {
    const pixels = cells(230, 20, []);
    for (let y = 0; y < 28; y += 1) pixels[y * width + 38] = 20;
    for (let y = 1; y < 28; y += 1) pixels[y * width + 39] = 120;
    expect(atCellWalls([box], pixels, width)).toHaveLength(2);
  });

  it("stay one box where it is drawn tight round its letters, each capital's stem meeting its edges", () => {
    const pixels = new Uint8Array(width * height).fill(230);
    for (const left of [10, 30, 50, 70, 90]) {
      for (let y = 0; y < height; y += 1) pixels.fill(20, y * width + left, y * width + left + 2);
      for (const y of [0, 14, 28]) pixels.fill(20, y * width + left, y * width + left + 10);
      for (let y = 0; y < height; y += 1) pixels[y * width + left + 10] = y % 14 === 7 ? 230 : 20;
    }
    expect(atCellWalls([box], pixels, width)).toEqual([box]);
  });

  it("stay one box where a T's stem meets its top edge, the T's bar beside it", () => {
    const pixels = new Uint8Array(width * height).fill(230);
    for (let y = 0; y < 5; y += 1) pixels.fill(20, y * width + 10, y * width + 40);
    for (let y = 0; y < 26; y += 1) pixels.fill(20, y * width + 24, y * width + 27);
    for (let y = 10; y < 26; y += 1) pixels.fill(20, y * width + 50, y * width + 52);
    expect(atCellWalls([box], pixels, width)).toEqual([box]);
  });

  it('stay one box where a stroke stands only as tall as letters do', () => {
    expect(atCellWalls([box], cells(230, 20, [38, 80], [9, 21]), width)).toEqual([box]);
  });
});

describe('fax speckle', () => {
  it('is told from print by its lone dots', () => {
    const width = 100;
    const height = 100;
    const clean = new Uint8Array(width * height).fill(255);
    for (let y = 40; y < 60; y += 1) clean.fill(0, y * width + 10, y * width + 14);
    const speckled = Uint8Array.from(clean);
    for (let index = 0; index < 40; index += 1) speckled[(7 + index * 2) * width + 50 + (index % 5) * 7] = 0;
    expect([isSpeckled(clean, width, height), isSpeckled(speckled, width, height)]).toEqual([false, true]);
  });
});

describe('finding text in the detector map', () => {
  it('boxes each region of likely text, top to bottom, and drops faint specks', () => {
    const width = 40;
    const height = 30;
    const map = new Float32Array(width * height);
    const fill = (left: number, top: number, right: number, bottom: number, value: number) => {
      for (let y = top; y < bottom; y += 1) for (let x = left; x < right; x += 1) map[y * width + x] = value;
    };
    fill(5, 20, 30, 24, 0.9);
    fill(5, 5, 20, 9, 0.8);
    fill(33, 5, 38, 9, 0.35);
    const boxes = findTextBoxes(map, width, height);
    expect(boxes).toHaveLength(2);
    expect(boxes[0].top).toBeLessThan(5);
    expect(boxes[0].left + boxes[0].width).toBeGreaterThan(20);
    expect(boxes[1].top).toBeLessThan(20);
  });
});

describe('two boxes of one row whose grown margins overlap', () => {
  const width = 80;
  const height = 20;
  const map = new Float32Array(width * height);
  const fill = (left: number, right: number) => {
    for (let y = 6; y < 14; y += 1) for (let x = left; x < right; x += 1) map[y * width + x] = 0.9;
  };
  fill(5, 38);
  fill(42, 75);

  it('are parted halfway across the overlap, so neither holds the other’s print', () => {
    const [first, second] = findTextBoxes(map, width, height);
    expect(first.left + first.width).toBe(second.left);
    expect(first.left + first.width).toBeGreaterThanOrEqual(38);
    expect(second.left).toBeLessThanOrEqual(42);
  });
});

describe('the second reader', () => {
  it('reads CTC output as its likeliest characters, repeats merged and blanks dropped', () => {
    const alphabet = ['', 'A', '1', ' '];
    const steps = [1, 1, 0, 1, 3, 2];
    const probabilities = new Float32Array(steps.length * alphabet.length);
    steps.forEach((best, step) => (probabilities[step * alphabet.length + best] = 0.9));
    expect(
      decodeCtc(probabilities, steps.length, alphabet.length, alphabet)
        .map((character) => character.text)
        .join(''),
    ).toBe('AA 1');
  });

  it('splits two letters it read as one word where, between them, it thought a space likely', () => {
    const alphabet = ['', 'A', 'M', ' '];
    // PRIYAM's last two letters, the space the recogniser weighed at 0.35 between them left out.
    const steps: Array<[number, number]> = [
      [1, 0.9],
      [0, 0.6],
      [0, 0.55],
      [2, 0.9],
    ];
    const probabilities = new Float32Array(steps.length * alphabet.length);
    steps.forEach(([best, probability], step) => {
      probabilities[step * alphabet.length + best] = probability;
      if (best === 0) probabilities[step * alphabet.length + 3] = 0.35;
    });
    const characters = decodeCtc(probabilities, steps.length, alphabet.length, alphabet);
    const line = { left: 0, top: 0, width: 40, height: 20 };
    const words = wordsOf(characters, line, 10, new Uint8Array(40));
    expect(words.map((word) => word.text)).toEqual(['A', 'M']);
  });

  it('never splits a run holding a digit where it only weighed a space: it may be an identifier', () => {
    const alphabet = ['', 'A', 'M', '7', ' '];
    const probabilities = new Float32Array(5 * alphabet.length);
    [1, 0, 0, 2, 3].forEach((best, step) => {
      probabilities[step * alphabet.length + best] = best === 0 ? 0.6 : 0.9;
      if (best === 0) probabilities[step * alphabet.length + 4] = 0.35;
    });
    const characters = decodeCtc(probabilities, 5, alphabet.length, alphabet);
    const words = wordsOf(characters, { left: 0, top: 0, width: 50, height: 20 }, 10, new Uint8Array(50));
    expect(words.map((word) => word.text)).toEqual(['AM7']);
  });

  it('keeps two letters one word where it weighed no space between them', () => {
    const alphabet = ['', 'A', 'M', ' '];
    const probabilities = new Float32Array(4 * alphabet.length);
    [1, 0, 0, 2].forEach((best, step) => (probabilities[step * alphabet.length + best] = 0.9));
    const characters = decodeCtc(probabilities, 4, alphabet.length, alphabet);
    const words = wordsOf(characters, { left: 0, top: 0, width: 40, height: 20 }, 10, new Uint8Array(40));
    expect(words.map((word) => word.text)).toEqual(['AM']);
  });

  it('puts boxes on one row when their middles are level, left to right', () => {
    const box = (left: number, top: number) => ({ left, top, width: 10, height: 10 });
    const word = (text: string, left: number, top: number) => ({ text, confidence: 1, box: box(left, top) });
    const rows = rowsOf([
      { words: [word('RXPCN', 20, 1)], box: box(20, 1) },
      { words: [word('RXBIN', 0, 0)], box: box(0, 0) },
      { words: [word('610014', 0, 20)], box: box(0, 20) },
    ]);
    expect(rows.map((row) => row.words.map((each) => each.text))).toEqual([['RXBIN', 'RXPCN'], ['610014']]);
  });
});

describe('regions the first reader missed', () => {
  const word = (text: string, left: number, top = 0) => ({
    text,
    confidence: 1,
    box: { left, top, width: text.length * 10, height: 10 },
  });
  const lineOf = (...words: ReturnType<typeof word>[]): ReadLine => ({ words, box: words[0].box });

  it("are the runs of the second reader's words where the first read nothing", () => {
    const first = [lineOf(word('MEMBER', 0), word('ID', 70))];
    const second = [lineOf(word('MEMBER', 0), word('ID', 70), word('RXBIN', 300), word('RXPCN', 360))];
    expect(missedRegions(first, second)).toEqual([{ left: 300, top: 0, width: 110, height: 10 }]);
  });

  it('take in the places where the first reader read nothing it was sure of', () => {
    const first = [lineOf(word('RXGRP', 0), { ...word('BXS263', 70), confidence: 0 })];
    const second = [lineOf(word('RXGRP', 0), word('RX5263', 70))];
    expect(missedRegions(first, second)).toEqual([{ left: 70, top: 0, width: 60, height: 10 }]);
  });

  it('once read again, stand for the words read there with nothing sure, and for no other', () => {
    const unsure = { ...word('BXS263', 70), confidence: 0 };
    const elsewhere = { ...word('wa', 300), confidence: 0 };
    const lines = withoutUnsureIn(
      [lineOf(word('RXGRP', 0), unsure, elsewhere)],
      [{ left: 70, top: 0, width: 60, height: 10 }],
    );
    expect(lines.map((line) => line.words.map((each) => each.text))).toEqual([['RXGRP', 'wa']]);
  });

  it("leave out the second reader's words that hold no letter or digit, a label's colon", () => {
    const first = [lineOf(word('ID', 0), word('#', 30), word('KHD', 80))];
    const second = [lineOf(word('ID', 0), word('#', 30), word(':', 50), word('KHD', 80))];
    expect(missedRegions(first, second)).toEqual([]);
  });
});

describe('a photo', () => {
  it('is never taken for a speckled fax, however noisy its ground', () => {
    const width = 100;
    const height = 100;
    const photo = new Uint8Array(width * height);
    for (let index = 0; index < photo.length; index += 1) photo[index] = 120 + ((index * 37) % 90);
    for (let index = 0; index < 40; index += 1) photo[(7 + index * 2) * width + 50] = 0;
    expect(isSpeckled(photo, width, height)).toBe(false);
  });
});

describe('a solid band of colour', () => {
  it('is no rule: it is left as it is', () => {
    const width = 60;
    const height = 40;
    const band = Buffer.alloc(width * height, 255);
    band.fill(0, 10 * width, 30 * width);
    expect(withoutRules(band, width, height, { across: 30, down: 15 })).toEqual(band);
  });
});
