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
 * Characters OCR gives for one another, in lower case: a word that differs from a name in one of these
 * only (`Metformir` for `metformin`: n and r) may be that name. Any other difference is another word:
 * `dexamethasone` is never `betamethasone`, nor `fosinopril` `lisinopril`.
 */
const LOOK_ALIKES = ['il1|!', 'o0qd', 's5', 'b8', 'z2', 'g69q', 'ce', 'nrmh', 'uv', 'tf'];

/** Names shorter than this are too easily another word one look-alike away. */
const SHORTEST_NAME = 6;

export class LookAlikeReader {
  private readonly namesByLength = new Map<number, string[]>();
  private readonly known = new Set<string>();

  /** `names`: drug and therapy names, brand and generic, as single words. */
  constructor(names: readonly string[]) {
    for (const name of new Set(names.map((each) => each.trim().toLowerCase()))) {
      if (!/^[a-z]+$/.test(name) || name.length < SHORTEST_NAME) continue;
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
    const near = (this.namesByLength.get(lower.length) ?? []).filter((name) =>
      oneLookAlikeApart(name, lower),
    );
    if (near.length !== 1) return undefined;
    const [name] = near;
    return [...name]
      .map((character, index) =>
        word[index] === word[index].toUpperCase() ? character.toUpperCase() : character,
      )
      .join('');
  }
}

/** Whether two words of one length differ at one position only, by characters OCR gives for each other. */
function oneLookAlikeApart(name: string, word: string): boolean {
  let differences = 0;
  for (let index = 0; index < name.length; index += 1) {
    if (name[index] === word[index]) continue;
    differences += 1;
    const pair = LOOK_ALIKES.some((group) => group.includes(name[index]) && group.includes(word[index]));
    if (!pair || differences > 1) return false;
  }
  return differences === 1;
}
