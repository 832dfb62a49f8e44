/**
 * Recognised text as it was printed, where OCR's look-alike characters leave one reading: the same
 * text, character for character the same length, so every citation still quotes the words as they were
 * read. Only text recognised from pixels is read this way; typed notes and text layers are taken as sent.
 */

/**
 * What OCR gives for the `1` of `A1c` (a lower-case l, a capital I, a bar, an exclamation mark), where
 * a percentage or an IFCC value follows: `Alc 8.9%` can only be an A1c, `alc 2 drinks` is not. Every
 * repetition is bounded, so a run of spaces costs a few steps, never its square.
 */
const A1C_LOOK_ALIKE =
  /(?<![A-Za-z0-9])((?:hb|hgb)?\s?a)([lI|!i])(c)(?![A-Za-z0-9])(?=[\s:,=-]{0,6}(?:(?:was|of|is|at)\s{1,3})?[<>≤≥~]?\s{0,3}\d{1,3}(?:[.,]\d{1,2})?\s{0,3}(?:%|percent|mmol))/gi;

/**
 * A word this close to exactly one name of the vocabulary is that name: one character apart for a
 * name of six letters or more, two for one of ten or more. Only same-length readings count (a letter
 * for a letter: `Metformir` for `metformin`), so the text keeps its length.
 */
function allowedDistance(length: number): number {
  return length >= 10 ? 2 : length >= 6 ? 1 : 0;
}

export class LookAlikeReader {
  private readonly namesByLength = new Map<number, string[]>();
  private readonly known = new Set<string>();

  /** `names`: drug and therapy names, brand and generic, as single words. */
  constructor(names: readonly string[]) {
    for (const name of new Set(names.map((each) => each.trim().toLowerCase()))) {
      if (!/^[a-z]+$/.test(name) || allowedDistance(name.length) === 0) continue;
      this.known.add(name);
      this.namesByLength.set(name.length, [...(this.namesByLength.get(name.length) ?? []), name]);
    }
  }

  /** The text with look-alikes read as the one word or value they can be. */
  read(text: string): string {
    const withA1c = text.replace(
      A1C_LOOK_ALIKE,
      (_whole, before: string, _one: string, c: string) => `${before}1${c}`,
    );
    return withA1c.replace(/[A-Za-z]{6,}/g, (word) => this.nameFor(word) ?? word);
  }

  /** The one name a word is a misreading of, written in the word's own case, or undefined. */
  private nameFor(word: string): string | undefined {
    const lower = word.toLowerCase();
    if (this.known.has(lower)) return undefined;
    const limit = allowedDistance(lower.length);
    const near = (this.namesByLength.get(lower.length) ?? []).filter((name) => apart(name, lower) <= limit);
    if (near.length !== 1) return undefined;
    const [name] = near;
    return [...name]
      .map((character, index) =>
        word[index] === word[index].toUpperCase() ? character.toUpperCase() : character,
      )
      .join('');
  }
}

/** How many positions two words of one length differ at. */
function apart(a: string, b: string): number {
  let differences = 0;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) differences += 1;
  return differences;
}
