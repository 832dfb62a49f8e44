/**
 * How names and NDCs written by people meet the ones a catalog or a request holds. Pure, with no
 * I/O, so workflows can match drugs too.
 */

/** Lowercase words separated by single spaces, so "Blue-Horizon  HEALTH" and "blue horizon health" meet. */
export function normalizeName(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Whether `needle` appears in `haystack` as whole words (both already normalized). */
export function containsWords(haystack: string, needle: string): boolean {
  return needle.length > 0 && ` ${haystack} `.includes(` ${needle} `);
}

/** NDCs come as 11 digits or hyphenated 10-digit forms (4-4-2, 5-3-2, 5-4-1); all pad to 5-4-2. */
export function normalizeNdc(ndc: string): string {
  const segments = ndc.trim().split('-');
  if (segments.length !== 3) return ndc.replace(/\D/g, '');
  const [labeler, product, pack] = segments as [string, string, string];
  return labeler.padStart(5, '0') + product.padStart(4, '0') + pack.padStart(2, '0');
}
