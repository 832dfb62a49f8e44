import { DAY_MS } from '../durations';
import { group } from './text-patterns';
import type { DayRange, Mention, Span } from './therapy-history';

/** How long a therapy was taken, as the words next to it state it ("for 6 months", "since 2024"). */

const WORD_NUMBERS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  eighteen: 18,
};

const UNIT_DAYS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^d/i, 1],
  [/^w/i, 7],
  [/^m/i, 30],
  [/^y/i, 365],
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const DURATION = new RegExp(
  String.raw`(?<![a-z0-9])(?<qualifier>(?:(?:for|x|×|about|approximately|approx\.?|~|the past|the last|past|last)\s*)*)` +
    String.raw`(?:(?<atLeast>at least|more than|greater than|over|>=|≥|>)\s*|(?<under>less than|under|<)\s*)?` +
    String.raw`(?<amount>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen|an?)` +
    String.raw`\s*-?\s*(?<unit>days?|weeks?|wks?|months?|mos?|years?|yrs?)(?![a-z])` +
    String.raw`|since\s+(?:(?<sinceMonth>${MONTHS.join('|')})[a-z]*\.?\s+)?(?<sinceYear>(?:19|20)\d{2})(?:-(?<sinceIsoMonth>\d{2})(?:-(?<sinceIsoDay>\d{2}))?)?(?![\d/])` +
    String.raw`|since\s+(?<sinceSlashMonth>\d{1,2})\/(?<sinceSlashYear>(?:19|20)\d{2})`,
  'gi',
);

/** "every 2 weeks" and "q2 weeks" are dosing intervals, not how long the drug was taken. */
const DOSING_INTERVAL_BEFORE = /(?:\bevery|\bq|\bper|\beach|\/)\s*$/i;
/** After a comma or bracket the words still describe the drug only when they start with a duration. */
const CONTINUES_WITH_DURATION = /^[,(]\s*(?:for|x|×|since|over|about|approximately|at least|\d)/i;

interface DurationFound extends Span {
  days: DayRange;
}

function daysOf(found: RegExpMatchArray, asOf: string | null): DayRange | undefined {
  const year = group(found, 'sinceYear') ?? group(found, 'sinceSlashYear');
  if (year) {
    if (!asOf) return undefined;
    const monthName = group(found, 'sinceMonth');
    const monthNumber =
      group(found, 'sinceIsoMonth') ??
      group(found, 'sinceSlashMonth') ??
      (monthName ? String(MONTHS.indexOf(monthName.slice(0, 3).toLowerCase()) + 1) : undefined);
    const day = group(found, 'sinceIsoDay');
    const y = Number(year);
    // The phrase names a period: the trial began somewhere inside it, so the length is a range.
    const earliest = monthNumber
      ? Date.UTC(y, Number(monthNumber) - 1, day ? Number(day) : 1)
      : Date.UTC(y, 0, 1);
    const latest = day ? earliest : monthNumber ? Date.UTC(y, Number(monthNumber), 0) : Date.UTC(y, 11, 31);
    const asOfMs = Date.parse(`${asOf}T00:00:00Z`);
    return {
      min: Math.max(0, Math.round((asOfMs - latest) / DAY_MS)),
      max: Math.max(0, Math.round((asOfMs - earliest) / DAY_MS)),
    };
  }
  const amountText = (group(found, 'amount') ?? '').toLowerCase();
  const qualifier = group(found, 'qualifier') ?? '';
  // "a month" counts only as "for a month": "twice a day" is a frequency.
  if ((amountText === 'a' || amountText === 'an') && !/\b(?:for|past|last)\b/i.test(qualifier))
    return undefined;
  const amount = WORD_NUMBERS[amountText] ?? Number(amountText);
  const unitDays = UNIT_DAYS.find(([pattern]) => pattern.test(group(found, 'unit') ?? ''))?.[1] ?? 0;
  const days = Math.round(amount * unitDays);
  if (group(found, 'atLeast')) return { min: days, max: Infinity };
  if (group(found, 'under')) return { min: 0, max: Math.max(0, days - 1) };
  return { min: days, max: days };
}

/** Only for short windows: DURATION is quadratic in the window's length on some inputs (see durationNear). */
function durationsIn(text: string, window: Span, asOf: string | null): DurationFound[] {
  const slice = text.slice(window.start, window.end);
  const found: DurationFound[] = [];
  for (const match of slice.matchAll(DURATION)) {
    const start = window.start + (match.index ?? 0);
    if (DOSING_INTERVAL_BEFORE.test(text.slice(Math.max(0, start - 8), start))) continue;
    const days = daysOf(match, asOf);
    if (days) found.push({ start, end: start + match[0].length, days });
  }
  return found;
}

/** The length stated right after the drug ("metformin for 6 months"), else right before ("6 months of metformin"). */
export function durationNear(
  text: string,
  mention: Mention,
  clause: Span,
  previous: Mention | undefined,
  next: Mention | undefined,
  asOf: string | null,
): DurationFound | undefined {
  let afterEnd = Math.min(clause.end, next?.start ?? text.length, mention.end + 60);
  const afterText = text.slice(mention.end, afterEnd);
  for (const separator of afterText.matchAll(/[,(]/g)) {
    const at = separator.index ?? 0;
    if (!CONTINUES_WITH_DURATION.test(afterText.slice(at))) {
      afterEnd = mention.end + at;
      break;
    }
  }
  // DURATION's repeated qualifier group backtracks quadratically on runs such as "~~~~…"; it is safe only
  // on these bounded windows (60 characters after, 30 before). Never widen them or scan whole passages.
  const after = durationsIn(text, { start: mention.end, end: afterEnd }, asOf)[0];
  if (after) return after;
  const beforeStart = Math.max(clause.start, previous?.end ?? 0, mention.start - 30);
  const before = durationsIn(text, { start: beforeStart, end: mention.start }, asOf).at(-1);
  const gapWords = before ? (text.slice(before.end, mention.start).match(/[a-z]+/gi)?.length ?? 0) : 0;
  return before && gapWords <= 3 ? before : undefined;
}
