import { randomInt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { projectRoot } from '../infrastructure/project-root';
import { documentText } from '../domain/documents/document-reading';
import type { DocumentReading } from '../domain/documents/document-reading';
import type { CardField } from '../domain/payers/card-fields';
import { readInsuranceCard } from '../domain/payers/insurance-card';
import { DocumentReadingPool } from '../infrastructure/documents/reading-pool';
import type { CardLayout, CardValues, Degradation } from './document-corpus';
import { faxedLetter } from './faxed-letter';
import type { FaxPage } from './faxed-letter';
import { renderedCardsScore } from './rendered-cards.bench-section';
import { seededRandom } from './seeded-random';
import {
  CARD_LAYOUTS,
  CLEAN,
  DEGRADATIONS,
  HELD_OUT_LAYOUTS,
  MEMBER_FIRST_NAMES,
  MEMBER_LAST_NAMES,
  SCORED,
  cardFaces,
  memberIdFieldOf,
  pdfDocument,
  renderFace,
  scannedCopy,
  scannedPage,
} from './document-corpus';

/** Cards per layout in the corpus; each is read clean and in every degraded form. */
const CARDS_PER_LAYOUT = Number(process.env.BENCH_CARDS_PER_LAYOUT ?? 2);

interface Tally {
  printed: number;
  exact: number;
  wrong: number;
}

interface CorpusScore {
  byField: Map<string, Tally>;
  byDegradation: Map<string, Tally>;
  cardMs: number[];
}

const REAL_PDFS = path.join(projectRoot(), 'test/fixtures/documents/hl7-c-cda-examples');

/**
 * The document reader on a generated corpus (bench/document-corpus.ts): field accuracy per field and
 * per degradation (a null is a miss; a wrong value a miss and an error), the same on layouts held out
 * from tuning with values of another seed, the time to read one card, a scanned letter page, a
 * two-page faxed letter, a 100-page text PDF and real clinical PDFs (HL7 C-CDA examples, CC0) with
 * their scanned copies, and the worker's memory with the reader warm. Both seeds are printed first,
 * so a run can be repeated with BENCH_SEED and BENCH_HELD_OUT_SEED.
 */
export async function documentReading(): Promise<void> {
  const seed = Number(process.env.BENCH_SEED ?? randomInt(1, 2 ** 31));
  const heldOutSeed = Number(process.env.BENCH_HELD_OUT_SEED ?? randomInt(1, 2 ** 31));
  const pool = new DocumentReadingPool();
  const rssBefore = process.memoryUsage().rss;
  try {
    const tuned = await scoreCorpus(pool, CARD_LAYOUTS, seededRandom(seed));
    const heldOut = await scoreCorpus(pool, HELD_OUT_LAYOUTS, seededRandom(heldOutSeed));
    const letter = (await scannedPage(LETTER)).scan;
    const letterMs = await timed(() => pool.read(letter));
    const fax = await faxedLetter(FAXED_LETTER, seed);
    let faxReading: DocumentReading | undefined;
    const faxMs = await timed(async () => (faxReading = await pool.read(fax)));
    const hundredPages = pdfDocument(Array.from({ length: 100 }, (_, page) => ({ lines: pageLines(page) })));
    const pdfMs = await timed(() => pool.read(hundredPages));
    const realPdfs = await readRealPdfs(pool);
    const rendered = await renderedCardsScore(pool, seed);
    const rssAfter = process.memoryUsage().rss;
    const cardMs = [...tuned.cardMs, ...heldOut.cardMs];
    console.log(
      [
        `Document reading (seed ${seed}, held-out seed ${heldOutSeed}; ${CARD_LAYOUTS.length} layouts + ${HELD_OUT_LAYOUTS.length} held out, × ${CARDS_PER_LAYOUT} cards, each clean and ${DEGRADATIONS.length} ways degraded)`,
        `  card read (OCR + fields), per card      p50 ${ms(percentile(cardMs, 50))}   p99 ${ms(percentile(cardMs, 99))}   (${cardMs.length} cards)`,
        `  scanned letter page, 200 dpi           ${ms(letterMs)}`,
        `  faxed letter, 2 pages (TIFF G4)        ${ms(faxMs)}   (${faxReading!.pages.length} of ${faxReading!.pageCount} pages read)`,
        `  100-page text PDF, text extracted      ${ms(pdfMs)}`,
        ...describeScore('tuned layouts', tuned),
        ...describeScore('held-out layouts', heldOut),
        ...rendered,
        '  real clinical PDFs (HL7 C-CDA examples, CC0): text layer, and a scanned copy at 200 dpi',
        ...realPdfs.map(
          (pdf) =>
            `    ${pdf.name.padEnd(24)} ${String(pdf.pages).padStart(2)} pages   text ${ms(pdf.textMs).padStart(7)}   ` +
            `scanned ${ms(pdf.ocrMs / pdf.pages).padStart(7)} a page   words recognised ${pdf.recall}`,
        ),
        `  RSS of this process, reader warm       +${Math.round((rssAfter - rssBefore) / 1024 / 1024)} MB (OCR threads included)`,
        '',
      ].join('\n'),
    );
  } finally {
    await pool.close();
  }
}

async function scoreCorpus(
  pool: DocumentReadingPool,
  layouts: readonly CardLayout[],
  random: () => number,
): Promise<CorpusScore> {
  const score: CorpusScore = { byField: new Map(), byDegradation: new Map(), cardMs: [] };
  for (const layout of layouts) {
    for (let index = 0; index < CARDS_PER_LAYOUT; index += 1) {
      const values = cardValues(random);
      for (const degradation of [CLEAN, ...DEGRADATIONS]) {
        const { fields, ms } = await readCard(pool, values, layout, degradation);
        score.cardMs.push(ms);
        for (const field of SCORED) {
          const expected = expectedValue(values, field);
          const actualField = field === 'member_id' ? memberIdFieldOf(layout) : field;
          const actual = fields[actualField] ?? null;
          for (const tally of [
            tallyOf(score.byField, field),
            tallyOf(score.byDegradation, degradation === CLEAN ? 'clean' : degradation.name),
          ]) {
            tally.printed += 1;
            if (actual === expected) tally.exact += 1;
            else if (actual !== null) tally.wrong += 1;
          }
        }
      }
    }
  }
  return score;
}

function describeScore(title: string, score: CorpusScore): string[] {
  const degraded = sumTallies([...score.byDegradation.entries()].filter(([name]) => name !== 'clean'));
  const clean = score.byDegradation.get('clean') ?? { printed: 0, exact: 0, wrong: 0 };
  return [
    `  ${title}: field accuracy, clean / degraded   ${percent(clean)} / ${percent(degraded)}`,
    `  ${title}: fields returned but wrong          ${clean.wrong + degraded.wrong}`,
    '    accuracy per field (all forms)',
    ...[...score.byField.entries()].map(([field, tally]) => `      ${field.padEnd(34)} ${describe(tally)}`),
    '    accuracy per form',
    ...[...score.byDegradation.entries()].map(
      ([name, tally]) => `      ${name.padEnd(34)} ${describe(tally)}`,
    ),
  ];
}

/** Each real PDF's text layer, then its scanned copy by OCR: how much of the printed words OCR finds. */
async function readRealPdfs(
  pool: DocumentReadingPool,
): Promise<Array<{ name: string; pages: number; textMs: number; ocrMs: number; recall: string }>> {
  const results = [];
  for (const name of readdirSync(REAL_PDFS)
    .filter((file) => file.endsWith('.pdf'))
    .sort()) {
    const bytes = readFileSync(path.join(REAL_PDFS, name));
    let original: DocumentReading | undefined;
    const textMs = await timed(async () => (original = await pool.read(bytes)));
    const copy = await scannedCopy(bytes);
    let scanned: DocumentReading | undefined;
    const ocrMs = await timed(async () => (scanned = await pool.read(copy)));
    const printed = wordsOf(documentText(original!));
    const recognised = wordsOf(documentText(scanned!));
    const found = [...printed].filter((word) => recognised.has(word)).length;
    const recall = `${((found / Math.max(1, printed.size)) * 100).toFixed(1)} %`;
    results.push({ name, pages: original!.pageCount, textMs, ocrMs, recall });
  }
  return results;
}

/** Distinct words of three or more letters or digits, as OCR and a text layer are compared. */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
}

async function readCard(
  pool: DocumentReadingPool,
  values: CardValues,
  layout: CardLayout,
  degradation: Degradation,
): Promise<{ fields: Partial<Record<CardField, string>>; ms: number }> {
  const faces = await Promise.all(cardFaces(values, layout).map((face) => renderFace(face, degradation)));
  const started = performance.now();
  const pages = [];
  for (const face of faces) pages.push(...(await pool.read(face)).pages);
  const card = readInsuranceCard(pages);
  const ms = performance.now() - started;
  const fields = Object.fromEntries(
    Object.entries(card).flatMap(([field, value]) => (value ? [[field, value.value]] : [])),
  );
  return { fields, ms };
}

function expectedValue(values: CardValues, field: CardField): string {
  const printed: Partial<Record<CardField, string>> = {
    member_id: values.memberId,
    group_number: values.groupNumber,
    rx_bin: values.rxBin,
    rx_pcn: values.rxPcn,
    rx_group: values.rxGroup,
    member_name: values.memberName,
  };
  return printed[field] ?? '';
}

const PAYERS = [
  ['Blue Horizon Health', 'PPO Select'],
  ['Summit Mutual Health', 'Choice HMO'],
  ['Harbor Point Health Plan', 'Gold EPO'],
  ['Prairie State Insurance', 'Silver POS'],
];

/** Values as payers print them: ids of letters and digits, BINs of six digits, short PCNs. */
function cardValues(random: () => number): CardValues {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const digits = (count: number) => Array.from({ length: count }, () => Math.floor(random() * 10)).join('');
  const letters = (count: number, alphabet = 'ABCDEFGHJKMNPRTUVWXY') =>
    Array.from({ length: count }, () => pick([...alphabet])).join('');
  const [payerName, planName] = pick(PAYERS);
  return {
    payerName,
    planName,
    memberName: `${pick(MEMBER_FIRST_NAMES)} ${pick(MEMBER_LAST_NAMES)}`,
    memberId: `${letters(random() < 0.5 ? 1 : 3)}${digits(8 + Math.floor(random() * 3))}`,
    groupNumber: digits(5 + Math.floor(random() * 4)),
    rxBin: `${1 + Math.floor(random() * 9)}${digits(5)}`,
    rxPcn: letters(2 + Math.floor(random() * 5)),
    rxGroup: `${letters(2)}${digits(3 + Math.floor(random() * 3))}`,
  };
}

const LETTER = [
  'Dear colleague,',
  'Thank you for seeing our patient, who has had type 2 diabetes',
  'mellitus since 2019. A1c was 8.1 percent on 1 October 2026 despite',
  'metformin 1000 mg twice daily for six months. BMI is 32.4 kg/m2.',
  'We request coverage of semaglutide 1 mg weekly.',
];

/** A referral letter as a fax sends it: a letter page, then a page with a ruled lab table. */
const FAXED_LETTER: readonly FaxPage[] = [
  { lines: ['Northside Endocrinology', ...LETTER] },
  {
    lines: ['Laboratory results'],
    table: [
      ['Test', 'Result', 'Units'],
      ['Hemoglobin A1c', '8.9', '%'],
      ['Glucose', '162', 'mg/dL'],
    ],
  },
];

function pageLines(page: number): string[] {
  return Array.from(
    { length: 40 },
    (_, line) => `Page ${page + 1}, line ${line + 1}: vitals stable, plan unchanged.`,
  );
}

function tallyOf(map: Map<string, Tally>, key: string): Tally {
  let tally = map.get(key);
  if (!tally) {
    tally = { printed: 0, exact: 0, wrong: 0 };
    map.set(key, tally);
  }
  return tally;
}

function sumTallies(entries: Array<[string, Tally]>): Tally {
  return entries.reduce(
    (sum, [, tally]) => ({
      printed: sum.printed + tally.printed,
      exact: sum.exact + tally.exact,
      wrong: sum.wrong + tally.wrong,
    }),
    { printed: 0, exact: 0, wrong: 0 },
  );
}

function describe(tally: Tally): string {
  return `${percent(tally).padStart(7)} exact   ${String(tally.wrong).padStart(3)} wrong   of ${tally.printed}`;
}

function percent(tally: Tally): string {
  return tally.printed === 0 ? '—' : `${((tally.exact / tally.printed) * 100).toFixed(1)} %`;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}
