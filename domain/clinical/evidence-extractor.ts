import { LookAlikeReader } from './ocr-look-alikes';
import { calendarDate } from './clinical-dates';
import type { ClinicalRecord, ResolvedDiagnosis } from './clinical-model';
import { bmiFromDiagnosis, measurementsIn, measurementsSpokenOf } from './measurement-reading';
import type { MeasurementFact, MeasurementName } from './measurements';
import {
  evidencePassages,
  normalizeQuotes,
  questionnairePassages,
  recordDocuments,
  secondReadingPassage,
} from './passages';
import type { Passage, RecordDocument } from './passages';
import { flexibleTerm } from './text-patterns';
import { durationNear } from './therapy-durations';
import {
  CLAUSE_BREAK,
  ENDED_BY_INTOLERANCE,
  ENDED_BY_REACH,
  excerptOf,
  PrefixCueReader,
  spansOf,
  suffixCue,
} from './therapy-history';
import type { Mention, Span, TherapyFact } from './therapy-history';

/**
 * Turns a clinical record into facts the criteria can be judged on: measured values, therapies tried
 * (or denied), and the documents present. Everything here is a pure function of the record and its
 * `asOf` date; the patterns are compiled once, when the module loads or the vocabulary is built.
 */

export interface ClinicalFacts {
  measurements: MeasurementFact[];
  therapies: TherapyFact[];
  documents: RecordDocument[];
}

/** A term as written without separators, so "ICS/LABA", "ICS-LABA" and "ics labas" all find "ics/laba". */
function termKey(text: string): string {
  return text.toLowerCase().replace(/[\s_/+-]+/g, '');
}

/**
 * Reads the record's text against a vocabulary of therapy names and classes (the catalog's prior
 * therapy terms). Build it once per vocabulary: it compiles the patterns.
 */
export class ClinicalFactExtractor {
  private readonly termsByKey = new Map<string, string>();
  private readonly mentionPattern: RegExp;

  private readonly lookAlikes: LookAlikeReader;

  /**
   * `therapyTerms`: the therapies the criteria ask about; `drugNames`: the catalog's drugs, brand and
   * generic, which recognised text may have misread along with the therapies.
   */
  constructor(therapyTerms: readonly string[], drugNames: readonly string[] = []) {
    this.lookAlikes = new LookAlikeReader([...therapyTerms, ...drugNames]);
    const unique = [...new Set(therapyTerms.map((term) => term.trim().toLowerCase()))].filter(Boolean);
    // Longest first, so "topical corticosteroid" is one mention and never also "corticosteroid".
    unique.sort((a, b) => b.length - a.length || a.localeCompare(b));
    const withPlural = (term: string) => `${flexibleTerm(term)}(?:e?s)?`;
    for (const term of unique) {
      if (!this.termsByKey.has(termKey(term))) this.termsByKey.set(termKey(term), term);
    }
    this.mentionPattern = new RegExp(
      `(?<![a-z0-9])(?:${unique.map(withPlural).join('|')})(?![a-z0-9])`,
      'gi',
    );
  }

  extract(record: ClinicalRecord, diagnoses: readonly ResolvedDiagnosis[]): ClinicalFacts {
    const asOf = calendarDate(record.asOf);
    const evidence = record.evidence.map((item) => ({
      item,
      passages: evidencePassages(item, this.lookAlikes),
      second: secondReadingPassage(item, this.lookAlikes),
    }));
    const recordFacts = this.factsIn(
      [
        ...record.questionnaires.flatMap(questionnairePassages),
        ...record.visitNotes.map((note): Passage => ({
          source: `visit note ${calendarDate(note.created_at) ?? note.created_at}`,
          date: calendarDate(note.created_at),
          text: normalizeQuotes(note.content),
        })),
      ],
      asOf,
    );
    const evidenceFacts = evidence.map(({ passages, second }) => {
      const read = this.factsIn(passages, asOf);
      return second ? filledIn(read, this.spokenOf(passages), this.factsIn([second], asOf)) : read;
    });
    return {
      measurements: [
        ...diagnoses.flatMap((diagnosis) => bmiFromDiagnosis(diagnosis, asOf) ?? []),
        ...recordFacts.measurements,
        ...evidenceFacts.flatMap((facts) => facts.measurements),
      ],
      therapies: [...recordFacts.therapies, ...evidenceFacts.flatMap((facts) => facts.therapies)],
      documents: recordDocuments(record, evidence),
    };
  }

  private spokenOf(passages: readonly Passage[]): SpokenOf {
    return {
      measurements: measurementsSpokenOf(passages),
      therapies: new Set(
        passages.flatMap((passage) => this.mentionsIn(passage.text).map(({ therapy }) => therapy)),
      ),
    };
  }

  private factsIn(passages: readonly Passage[], asOf: string | null): PassageFacts {
    return {
      measurements: passages.flatMap((passage) => measurementsIn(passage)),
      therapies: passages.flatMap((passage) => this.therapiesIn(passage, asOf)),
    };
  }

  private mentionsIn(text: string): Mention[] {
    return [...text.matchAll(this.mentionPattern)].map((found) => {
      const start = found.index ?? 0;
      return { start, end: start + found[0].length, therapy: this.termFor(found[0]) };
    });
  }

  private termFor(written: string): string {
    const key = termKey(written);
    return (
      this.termsByKey.get(key) ??
      this.termsByKey.get(key.replace(/s$/, '')) ??
      this.termsByKey.get(key.replace(/es$/, '')) ??
      written.toLowerCase()
    );
  }

  /**
   * One pass over the passage: clause breaks, prefix cues and mentions are each found once, in order,
   * and every mention is judged from bounded windows around it or from state carried over from the
   * mention before it, so the work grows with the text, never with its square.
   */
  private therapiesIn(passage: Passage, asOf: string | null): TherapyFact[] {
    const { text } = passage;
    const mentions = this.mentionsIn(text);
    if (mentions.length === 0) return [];
    const breaks = spansOf(text, CLAUSE_BREAK);
    const prefixes = new PrefixCueReader(text);
    let breakIndex = 0;
    const facts: TherapyFact[] = [];
    mentions.forEach((mention, index) => {
      while (breakIndex < breaks.length && (breaks[breakIndex] as Span).end <= mention.start) breakIndex += 1;
      let endIndex = breakIndex;
      while (endIndex < breaks.length && (breaks[endIndex] as Span).start < mention.end) endIndex += 1;
      const clause = {
        start: breaks[breakIndex - 1]?.end ?? 0,
        end: breaks[endIndex]?.start ?? text.length,
      };
      const previous = mentions[index - 1];
      const next = mentions[index + 1];
      const suffix = suffixCue(text, mention, Math.min(clause.end, next?.start ?? text.length));
      const prefix = prefixes.reaching(mention, clause.start, previous);
      const stated = suffix?.kind ?? prefix?.kind;
      if (stated === 'prospective') return;
      const duration = durationNear(text, mention, clause, previous, next, asOf);
      const rest = text.slice(
        mention.end,
        Math.min(clause.end, next?.start ?? text.length, mention.end + ENDED_BY_REACH),
      );
      const endedByIntolerance = stated !== 'negated' && ENDED_BY_INTOLERANCE.test(rest);
      let assertion: TherapyFact['assertion'] =
        stated === 'intolerant' || endedByIntolerance
          ? 'intolerant'
          : stated === 'negated'
            ? 'not_tried'
            : 'tried';
      if (passage.answer === 'no') {
        if (assertion === 'intolerant') return;
        assertion = assertion === 'tried' ? 'not_tried' : 'tried';
      }
      facts.push({
        therapy: mention.therapy,
        assertion,
        // "No" to "has the patient never used X for 3 months?" says X was used, but not for how long.
        duration: assertion === 'tried' && stated === 'negated' ? null : (duration?.days ?? null),
        date: passage.date,
        citation: {
          source: passage.source,
          excerpt:
            passage.excerpt ??
            excerptOf(passage.cited ?? text, mention, suffix ? undefined : prefix, [suffix, duration]),
        },
      });
    });
    return facts;
  }
}

type PassageFacts = Pick<ClinicalFacts, 'measurements' | 'therapies'>;

/** What a reading of a page speaks of, whether or not it gave a fact of it. */
interface SpokenOf {
  measurements: ReadonlySet<MeasurementName>;
  therapies: ReadonlySet<string>;
}

/**
 * A page's facts with what its second reading adds: a measurement or a therapy the first reading does
 * not speak of at all. Where the first reading speaks of one, even to give no fact (a goal, a planned
 * therapy), the second reading adds nothing of it, so it can fill a gap but never turn a judgement.
 */
function filledIn(first: PassageFacts, spoken: SpokenOf, second: PassageFacts): PassageFacts {
  return {
    measurements: [
      ...first.measurements,
      ...second.measurements.filter((fact) => !spoken.measurements.has(fact.name)),
    ],
    therapies: [
      ...first.therapies,
      ...second.therapies.filter((fact) => !spoken.therapies.has(fact.therapy)),
    ],
  };
}
