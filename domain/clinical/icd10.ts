import type { ClinicalDiagnosisInput, ResolvedDiagnosis } from './clinical-model';

export interface Icd10Code {
  code: string;
  description: string;
  /** Words prescribers write instead of the code ("T2DM", "plaque psoriasis"). */
  synonyms: string[];
}

/** A code prefix the criteria use for a whole family ("E11", "J45.5"). */
export interface Icd10Family {
  prefix: string;
  description: string;
}

export interface Icd10SubsetData {
  families: Icd10Family[];
  codes: Icd10Code[];
}

interface DescriptionPhrase {
  code: Icd10Code;
  words: string[];
  phrase: string;
}

/** Upper case with the dot after the category: " e119 " and "E11.9" both become "E11.9". */
export function normalizeIcd10Code(code: string): string {
  const compact = compactCode(code);
  return compact.length > 3 ? `${compact.slice(0, 3)}.${compact.slice(3)}` : compact;
}

/** Whether `code` lies in the family `prefix` names: "J45.50" is in "J45.5" and "J45", not in "J45.4". */
export function isInFamily(code: string, prefix: string): boolean {
  return compactCode(code).startsWith(compactCode(prefix));
}

function compactCode(code: string): string {
  return code.toUpperCase().replace(/[\s.]/g, '');
}

/**
 * Lowercase words without punctuation, apostrophes dropped rather than split ("Crohn's" → "crohns"),
 * so that descriptions and synonyms compare however they were typed.
 */
function descriptionWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** The shipped ICD-10-CM subset: descriptions of codes, and free-text descriptions mapped to codes. */
export class Icd10Subset {
  private readonly codesByCode: Map<string, Icd10Code>;
  private readonly familiesByPrefix: Map<string, Icd10Family>;
  private readonly phrases: DescriptionPhrase[];

  constructor(readonly data: Icd10SubsetData) {
    this.codesByCode = new Map(data.codes.map((code) => [normalizeIcd10Code(code.code), code]));
    this.familiesByPrefix = new Map(
      data.families.map((family) => [normalizeIcd10Code(family.prefix), family]),
    );
    this.phrases = data.codes.flatMap((code) =>
      [code.description, ...code.synonyms].map((text) => {
        const words = descriptionWords(text);
        return { code, words, phrase: words.join(' ') };
      }),
    );
  }

  /** The official description of a code of the subset, or of a family prefix; null for other codes. */
  describe(code: string): string | null {
    const normalized = normalizeIcd10Code(code);
    return (
      this.codesByCode.get(normalized)?.description ??
      this.familiesByPrefix.get(normalized)?.description ??
      null
    );
  }

  /** Whether the subset holds this code or family prefix, so a criterion naming it can be described. */
  knows(codeOrPrefix: string): boolean {
    return this.describe(codeOrPrefix) !== null;
  }

  /**
   * The code a free-text description names. Every word of a synonym (or of the official description)
   * must appear in the text; the synonym with the most words wins, so "severe persistent asthma" beats
   * "asthma", and a synonym found as one phrase beats the same words scattered. Ties go to the order of
   * the data file, which keeps the answer stable.
   */
  codeForDescription(description: string): Icd10Code | undefined {
    const words = descriptionWords(description);
    const present = new Set(words);
    const text = ` ${words.join(' ')} `;
    let best: { code: Icd10Code; score: number } | undefined;
    for (const candidate of this.phrases) {
      if (!candidate.words.every((word) => present.has(word))) continue;
      const score = candidate.words.length * 2 + (text.includes(` ${candidate.phrase} `) ? 1 : 0);
      if (!best || score > best.score) best = { code: candidate.code, score };
    }
    return best?.code;
  }

  /** The code wins when both are given, even when the description would name another code. */
  resolve(input: ClinicalDiagnosisInput): ResolvedDiagnosis {
    const code = input.code?.trim();
    if (code) {
      const normalized = normalizeIcd10Code(code);
      return {
        input,
        code: normalized,
        description: this.describe(normalized) ?? (input.description?.trim() || null),
        resolved_by: 'code',
      };
    }
    const description = input.description?.trim();
    const matched = description ? this.codeForDescription(description) : undefined;
    if (!matched) {
      return { input, code: null, description: description || null, resolved_by: 'unresolved' };
    }
    return {
      input,
      code: normalizeIcd10Code(matched.code),
      description: matched.description,
      resolved_by: 'description',
    };
  }
}
