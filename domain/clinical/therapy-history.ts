import type { EvidenceCitation } from './clinical-model';
import { abridged, tidy } from './passages';
import { group, isWhitespace } from './text-patterns';

/**
 * What the words around a therapy say of the patient's history with it: tried, not tried, or not
 * tolerated, and the excerpt that says so.
 */

/** A length of time in days; `max` is Infinity for "at least" and the two differ for "since 2024". */
export interface DayRange {
  min: number;
  max: number;
}

export interface TherapyFact {
  /** The vocabulary term mentioned, in lower case: "metformin", "topical corticosteroid". */
  therapy: string;
  assertion: 'tried' | 'not_tried' | 'intolerant';
  /**
   * For `tried`, how long it was taken. For `not_tried`, the length of trial the source denies ("has not
   * tried metformin for 3 months" leaves a shorter trial possible). Null when no length is stated.
   */
  duration: DayRange | null;
  date: string | null;
  citation: EvidenceCitation;
}

/** What the words around a drug say: intolerance, a trial that happened (mostly failed), none, or a plan. */
type CueKind = 'intolerant' | 'tried' | 'negated' | 'prospective';

const INTOLERANT_CUES = String.raw`intoleran(?:t|ce)|allerg(?:ic|y|ies)|contraindicat(?:ed|ions?)|hypersensitiv(?:e|ity)|(?:could not|couldn't|unable to|did not|didn't|does not|doesn't|cannot|can't) tolerate|not tolerat(?:ed|ing)|poorly tolerated|adverse (?:reactions?|effects?|events?)|side[- ]effects?`;
const TRIAL_CUES = String.raw`fail(?:ed|ure|ing|s)?|inadequate(?:ly)?|insufficient|suboptimal|partial(?:ly)? respon(?:se|ded|sive)|no (?:improvement|response|benefit|relief)|not (?:controlled|responsive|responding|improved|improving|effective)|uncontrolled|refractory|despite|lack of (?:response|efficacy|improvement)|(?:did not|didn't) (?:respond|improve|work|help)|no longer|discontinued|stopped|progressed|ineffective`;
const NEGATED_CUES = String.raw`no|not|never|denies|denied|denying|without|none|nor|neither|hasn't|haven't|hadn't|didn't|doesn't|isn't|wasn't|hasnt|havent|didnt`;
const PROSPECTIVE_CUES = String.raw`start|starting|initiate|initiating|begin|beginning|consider|considering|recommend|recommended|plan(?:s|ned|ning)? to|will (?:start|try|begin|initiate)|candidate for`;

// Alternatives are tried in order at each position, so "no improvement" (tried) wins over "no" (negated).
const PREFIX_CUE = new RegExp(
  `(?<![a-z0-9'])(?:(?<intolerant>${INTOLERANT_CUES})|(?<tried>${TRIAL_CUES})|(?<negated>${NEGATED_CUES})|(?<prospective>${PROSPECTIVE_CUES}))(?![a-z0-9'])`,
  'gi',
);

/** Cues right after the drug: "metformin: none", "methotrexate (not tolerated)", "statin 40 mg - failed". */
const SUFFIX_CUE = new RegExp(
  String.raw`^(?:\s*\d+(?:\.\d+)?\s*(?:mg|mcg|µg|g|ml|units?|iu)(?![a-z])[^,;:()\n]{0,20}?)?[\s:,()\-–—]*` +
    String.raw`(?:(?<intolerant>not tolerated|poorly tolerated|intoleran(?:t|ce)|allerg(?:ic|y)|contraindicated|caused [a-z]+|side[- ]effects?|adverse (?:reactions?|effects?|events?)|gi upset)` +
    String.raw`|(?<tried>fail(?:ed|ure)|ineffective|inadequate(?: response)?|insufficient response|no (?:improvement|response|benefit|relief)|not effective|no longer|discontinued|stopped|without (?:improvement|benefit|response))` +
    String.raw`|(?<negated>none|never(?:\s+(?:tried|used|taken|given))?|not\s+(?:tried|used|taken|started|given|trialed|trialled|prescribed)|(?:no|n\/a|denied)(?=\s*(?:$|[,.;)\n]))))(?![a-z0-9'])`,
  'i',
);

/**
 * A trial ended by an intolerance is an intolerance, which payers accept in place of the trial:
 * "metformin stopped after 2 weeks because of GI upset". Read in the clause after the drug, within
 * ENDED_BY_REACH characters, so the cost stays linear.
 */
export const ENDED_BY_INTOLERANCE = new RegExp(
  String.raw`\b(?:because of|due to|owing to|secondary to)\s+(?:[a-z-]+\s+){0,3}?(?:${INTOLERANT_CUES}|gi upset|nausea|vomiting|diarrh(?:o|e)a|myalgias?|myopathy|lactic acidosis)(?![a-z])`,
  'i',
);
export const ENDED_BY_REACH = 120;

/** A cue reaches the drug only across this many other words (drug names and list commas aside). */
const CUE_REACH_WORDS = 6;

export const CLAUSE_BREAK = /[.!?;\n](?!\d)|\b(?:but|however|although|though|whereas|except)\b/gi;

export interface Span {
  start: number;
  end: number;
}

export interface Mention extends Span {
  therapy: string;
}

interface Cue extends Span {
  kind: CueKind;
}

/** Longest excerpt cited for one mention; a cue further away is quoted on its own, before an ellipsis. */
const EXCERPT_REACH = 160;

export function excerptOf(
  text: string,
  mention: Mention,
  prefix: Span | undefined,
  after: ReadonlyArray<Span | undefined>,
): string {
  const spans: Span[] = [mention, ...after.filter((span) => span !== undefined)];
  const start = Math.min(...spans.map((span) => span.start));
  const end = Math.max(...spans.map((span) => span.end));
  const near = abridged(tidy(text.slice(start, end)));
  if (!prefix) return near;
  if (end - prefix.start <= EXCERPT_REACH)
    return abridged(tidy(text.slice(Math.min(start, prefix.start), end)));
  return `${tidy(text.slice(prefix.start, prefix.end))} … ${near}`;
}

export function spansOf(text: string, pattern: RegExp): Span[] {
  return [...text.matchAll(pattern)].map((found) => ({
    start: found.index ?? 0,
    end: (found.index ?? 0) + found[0].length,
  }));
}

export function suffixCue(text: string, mention: Mention, limit: number): Cue | undefined {
  const after = text.slice(mention.end, Math.max(mention.end, limit));
  const found = SUFFIX_CUE.exec(after);
  if (!found) return undefined;
  const kind = (['intolerant', 'tried', 'negated'] as const).find((name) => group(found, name) !== undefined);
  return kind && { kind, start: mention.end, end: mention.end + found[0].length };
}

/** What lies between a cue and a mention, read word by word: the words counted and the commas judged. */
interface Reach {
  cue: Cue;
  /** Where reading stopped: the next mention continues from here. */
  readTo: number;
  words: number;
  /** Every comma so far only separated other drugs ("metformin, and glipizide"). */
  listOnly: boolean;
  conjunctions: number;
  otherWords: boolean;
}

const LIST_CONJUNCTIONS = new Set(['and', 'or', 'nor']);
const NEGATIONS_BEFORE_CUE = new Set(['no', 'not', 'without', 'denies', 'denied', 'never']);

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * The nearest cue before a drug in its clause, when it reaches the drug: few enough words between,
 * and any comma between only separating other drugs ("denies metformin, glipizide" negates both; "no
 * complications, on metformin" negates neither). Cues are found once per passage; what lies between a
 * cue and successive drugs is read once, continuing from the previous drug, and reading stops as soon
 * as the cue can no longer reach.
 */
export class PrefixCueReader {
  private readonly cues: Array<Cue & { match: RegExpMatchArray }>;
  private cueIndex = 0;
  private reach: Reach | undefined;
  private readonly undone = new Map<Cue, boolean>();

  constructor(private readonly text: string) {
    this.cues = [...text.matchAll(PREFIX_CUE)].flatMap((match) => {
      const kind = (['intolerant', 'tried', 'negated', 'prospective'] as const).find(
        (name) => group(match, name) !== undefined,
      );
      const start = match.index ?? 0;
      return kind ? [{ kind, start, end: start + match[0].length, match }] : [];
    });
  }

  reaching(mention: Mention, clauseStart: number, previous: Mention | undefined): Cue | undefined {
    while (this.cueIndex < this.cues.length && (this.cues[this.cueIndex] as Cue).end <= mention.start)
      this.cueIndex += 1;
    const cue = this.cues[this.cueIndex - 1];
    if (!cue || cue.start < clauseStart) return undefined;
    const continues = this.reach?.cue === cue && previous !== undefined && previous.start >= cue.end;
    const reach: Reach = continues
      ? (this.reach as Reach)
      : { cue, readTo: cue.end, words: 0, listOnly: true, conjunctions: 0, otherWords: false };
    if (continues && previous) {
      this.read(reach, previous.start);
      reach.readTo = Math.max(reach.readTo, previous.end);
    }
    this.read(reach, mention.start);
    this.reach = reach;
    if (!reach.listOnly || reach.words > CUE_REACH_WORDS) return undefined;
    const { kind, start, end } = cue;
    if ((kind === 'intolerant' || kind === 'tried') && this.negatedBefore(cue, clauseStart)) {
      return { kind: 'tried', start, end };
    }
    return { kind, start, end };
  }

  /** Reads on to `until`, stopping early once the cue cannot reach any further drug. */
  private read(reach: Reach, until: number): void {
    const { text } = this;
    let at = reach.readTo;
    while (at < until && reach.listOnly && reach.words <= CUE_REACH_WORDS) {
      const code = text.charCodeAt(at);
      if (isAsciiAlphanumeric(code)) {
        let wordEnd = at + 1;
        while (wordEnd < until && isAsciiAlphanumeric(text.charCodeAt(wordEnd))) wordEnd += 1;
        reach.words += 1;
        if (LIST_CONJUNCTIONS.has(text.slice(at, wordEnd).toLowerCase()) && reach.conjunctions === 0)
          reach.conjunctions = 1;
        else reach.otherWords = true;
        at = wordEnd;
        continue;
      }
      const char = text.charAt(at);
      if (char === ',') {
        reach.listOnly = !reach.otherWords;
        reach.conjunctions = 0;
        reach.otherWords = false;
      } else if (char !== '(' && char !== ')' && !isWhitespace(char)) {
        reach.otherWords = true;
      }
      at += 1;
    }
    reach.readTo = Math.max(reach.readTo, at);
  }

  /**
   * A negation word just before an intolerance or failure cue undoes it ("no side effects on
   * metformin"): at most one other word between, read backwards from the cue, once per cue.
   */
  private negatedBefore(cue: Cue, clauseStart: number): boolean {
    const known = this.undone.get(cue);
    if (known !== undefined) return known;
    const { text } = this;
    const wordBefore = (end: number): { start: number; word: string } | undefined => {
      let at = end;
      while (at > clauseStart && isWhitespace(text.charAt(at - 1))) at -= 1;
      if (at === end) return undefined;
      let start = at;
      while (start > clauseStart && isAsciiLetter(text.charCodeAt(start - 1))) start -= 1;
      return start === at ? undefined : { start, word: text.slice(start, at).toLowerCase() };
    };
    const isNegation = (found: { start: number; word: string } | undefined): boolean => {
      if (!found || !NEGATIONS_BEFORE_CUE.has(found.word)) return false;
      return found.start === clauseStart || text.charAt(found.start - 1) !== "'";
    };
    const nearest = wordBefore(cue.start);
    let undone = isNegation(nearest);
    if (
      !undone &&
      nearest &&
      (nearest.start === clauseStart || isWhitespace(text.charAt(nearest.start - 1)))
    ) {
      undone = isNegation(wordBefore(nearest.start));
    }
    this.undone.set(cue, undone);
    return undone;
  }
}
