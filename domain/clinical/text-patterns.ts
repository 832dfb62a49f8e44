/**
 * Helpers for matching the record's words: a match's named groups, terms however their words are
 * joined, and whitespace.
 */

export function group(found: RegExpMatchArray, name: string): string | undefined {
  return found.groups?.[name];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A term whose words may be joined by spaces, hyphens, underscores or nothing ("LDL-C", "ldl_c", "LDLC"). */
export function flexibleTerm(term: string): string {
  return term
    .toLowerCase()
    .split(/[\s_/+-]+/)
    .map(escapeRegExp)
    .join('[\\s_/+-]*');
}

export function isWhitespace(char: string): boolean {
  return /\s/.test(char);
}
