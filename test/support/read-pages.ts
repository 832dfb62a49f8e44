import { boxAround } from '../../domain/documents/document-reading';
import type { ReadLine, ReadPage, ReadWord } from '../../domain/documents/document-reading';

/** Text laid out as a page: boxes count characters across and lines down. */
export function textPage(text: string, number = 1): ReadPage {
  const lines: ReadLine[] = [];
  text.split(/\r?\n/).forEach((line, lineIndex) => {
    const words: ReadWord[] = [];
    const pattern = /\S+/g;
    for (let match = pattern.exec(line); match; match = pattern.exec(line)) {
      words.push({
        text: match[0],
        confidence: 1,
        box: { left: match.index, top: lineIndex, width: match[0].length, height: 1 },
      });
    }
    if (words.length > 0) lines.push({ words, box: boxAround(words.map((word) => word.box)) });
  });
  const width = Math.max(0, ...text.split(/\r?\n/).map((line) => line.length));
  return { number, method: 'text', width, height: lines.length, lines, confidence: lines.length ? 1 : null };
}

/** A card face as one OCR engine would give it: the text's layout, each word at the confidence given. */
export function face(lines: string[], confidence = 0.96, number = 1): ReadPage {
  const page = textPage(lines.join('\n'), number);
  return {
    ...page,
    method: 'ocr',
    lines: page.lines.map((line) => ({
      ...line,
      words: line.words.map((word) => ({ ...word, confidence })),
    })),
  };
}

/**
 * A card face read by both readers: the first reader's lines and the second's, laid out on the same
 * character grid, so a value both read in the same columns is in the same place.
 */
export function readTwice(
  first: string[],
  second: string[],
  confidence: { first?: number; second?: number } = {},
): ReadPage {
  return { ...face(first, confidence.first ?? 0.96), second: face(second, confidence.second ?? 0.97).lines };
}
