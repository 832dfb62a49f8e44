import { chromium } from 'playwright-core';

import type { CardField } from '../domain/payers/card-fields';
import { readInsuranceCard } from '../domain/payers/insurance-card';
import type { DocumentReadingPool } from '../infrastructure/documents/reading-pool';
import type { CardForm, ChromiumCardValues } from './chromium-cards';
import { expectedMemberId, randomCard, renderCards } from './chromium-cards';
import { SCORED as SVG_CORPUS_SCORED } from './document-corpus';
import { drawGhostscriptCard, ghostscriptAvailable } from './ghostscript-cards';
import { drawCard, imageMagickAvailable } from './imagemagick-cards';
import type { SeededCard } from './card-program';
import { drawJava2dCards, java2dAvailable } from './java2d-cards';
import { drawPillowCards, pillowUnavailable } from './pillow-cards';

/** Cards per renderer and form (photo, scan); BENCH_RENDERED_CARDS changes it, 0 skips them. */
const CARDS_PER_FORM = Number(process.env.BENCH_RENDERED_CARDS ?? 20);

/** The SVG corpus's fields, and the payer's name, which these cards print in words of their own. */
const SCORED: readonly CardField[] = [...SVG_CORPUS_SCORED, 'payer_name'];

interface RenderedCard {
  values: ChromiumCardValues;
  form: CardForm;
  image: Buffer;
}

interface FormScore {
  printed: number;
  exact: number;
  wrong: number;
  memberIds: number;
  memberIdsRead: number;
  wrongValues: string[];
  /** Fields left unread, by name: where the reader loses most. */
  unread: Map<CardField, number>;
}

/**
 * The reader on cards drawn by renderers other than the SVG corpus's: Chromium (HTML and CSS), which
 * the reader's rules were tuned on during issue 41; ImageMagick, never tuned on until its photos were
 * looked at for the card's corners and its one wrong group number (issue 41's second stop);
 * Ghostscript (PostScript), never tuned on until issue 41's eighteenth stop; Java 2D, never tuned on
 * until its nineteenth; and Pillow on FreeType, which the reader is never tuned on. Each is scored per
 * form (photo, scan) and per field, wrong values listed by field.
 */
export async function renderedCardsScore(pool: DocumentReadingPool, seed: number): Promise<string[]> {
  if (CARDS_PER_FORM === 0) return ['  cards by other renderers: skipped (BENCH_RENDERED_CARDS=0)'];
  const lines = [`  cards by other renderers (seed ${seed}, ${CARDS_PER_FORM} per form)`];
  const chromiumCards = await chromiumRendered(seed);
  lines.push(...describe('Chromium, HTML and CSS (tuned on)', await score(pool, chromiumCards)));
  if (await imageMagickAvailable()) {
    lines.push(
      ...describe('ImageMagick (looked at once)', await score(pool, await imageMagickRendered(seed))),
    );
  } else
    lines.push(
      '    ImageMagick (looked at once): skipped, no ImageMagick here (apt-get install imagemagick)',
    );
  const ghostscriptTitle = 'Ghostscript, PostScript (tuned on from the eighteenth stop)';
  if (await ghostscriptAvailable())
    lines.push(...describe(ghostscriptTitle, await score(pool, await ghostscriptRendered(seed))));
  else lines.push(`    ${ghostscriptTitle}: skipped, no Ghostscript here (apt-get install ghostscript)`);
  const java2dTitle = 'Java 2D, OpenJDK AWT (tuned on from the nineteenth stop)';
  if (await java2dAvailable())
    lines.push(
      ...describe(java2dTitle, await score(pool, await programRendered(seed + 1_300_000, drawJava2dCards))),
    );
  else lines.push(`    ${java2dTitle}: skipped, no JDK 11 or later here (apt-get install openjdk-17-jdk)`);
  const pillowTitle = 'Pillow, FreeType (never tuned on)';
  const pillowMissing = await pillowUnavailable();
  if (pillowMissing === null)
    lines.push(
      ...describe(pillowTitle, await score(pool, await programRendered(seed + 1_700_000, drawPillowCards))),
    );
  else lines.push(`    ${pillowTitle}: skipped, ${pillowMissing}`);
  return lines;
}

async function chromiumRendered(seed: number): Promise<RenderedCard[]> {
  const cards = (['photo', 'scan'] as const).flatMap((form, formIndex) =>
    Array.from({ length: CARDS_PER_FORM }, (_, index) =>
      randomCard(seed + formIndex * 100_000 + index, form),
    ),
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-background-networking'],
  });
  try {
    const images = await renderCards(browser, cards);
    return cards.map((card, index) => ({ values: card.values, form: card.form, image: images[index] }));
  } finally {
    await browser.close();
  }
}

async function imageMagickRendered(seed: number): Promise<RenderedCard[]> {
  const cards: RenderedCard[] = [];
  for (const [formIndex, form] of (['photo', 'scan'] as const).entries()) {
    for (let index = 0; index < CARDS_PER_FORM; index += 1) {
      const cardSeed = seed + 500_000 + formIndex * 100_000 + index;
      const { values } = randomCard(cardSeed, form);
      cards.push({ values, form, image: await drawCard({ values, form, seed: cardSeed }) });
    }
  }
  return cards;
}

async function ghostscriptRendered(seed: number): Promise<RenderedCard[]> {
  const cards: RenderedCard[] = [];
  for (const [formIndex, form] of (['photo', 'scan'] as const).entries()) {
    for (let index = 0; index < CARDS_PER_FORM; index += 1) {
      const cardSeed = seed + 900_000 + formIndex * 100_000 + index;
      const { values } = randomCard(cardSeed, form);
      cards.push({ values, form, image: await drawGhostscriptCard({ values, form, seed: cardSeed }) });
    }
  }
  return cards;
}

/** Cards drawn by a renderer that runs as a program of its own, from seeds counted from `firstSeed`. */
async function programRendered(
  firstSeed: number,
  draw: (cards: readonly SeededCard[]) => Promise<Buffer[]>,
): Promise<RenderedCard[]> {
  const cards = (['photo', 'scan'] as const).flatMap((form, formIndex) =>
    Array.from({ length: CARDS_PER_FORM }, (_, index) => {
      const cardSeed = firstSeed + formIndex * 100_000 + index;
      return { values: randomCard(cardSeed, form).values, form, seed: cardSeed };
    }),
  );
  const images = await draw(cards);
  return cards.map((card, index) => ({ values: card.values, form: card.form, image: images[index] }));
}

async function score(
  pool: DocumentReadingPool,
  cards: readonly RenderedCard[],
): Promise<{ forms: Map<CardForm, FormScore>; cardMs: number[] }> {
  const forms = new Map<CardForm, FormScore>();
  const cardMs: number[] = [];
  for (const card of cards) {
    const started = performance.now();
    const read = readInsuranceCard((await pool.read(card.image)).pages);
    cardMs.push(performance.now() - started);
    const tally = forms.get(card.form) ?? {
      printed: 0,
      exact: 0,
      wrong: 0,
      memberIds: 0,
      memberIdsRead: 0,
      wrongValues: [],
      unread: new Map<CardField, number>(),
    };
    forms.set(card.form, tally);
    const expected = expectedFields(card.values);
    for (const field of SCORED) {
      const actual = read[field]?.value ?? null;
      tally.printed += 1;
      if (actual !== null && actual.toUpperCase() === expected[field]?.toUpperCase()) tally.exact += 1;
      else if (actual !== null) {
        tally.wrong += 1;
        tally.wrongValues.push(field);
      } else tally.unread.set(field, (tally.unread.get(field) ?? 0) + 1);
    }
    tally.memberIds += 1;
    if (read.member_id?.value === expected.member_id) tally.memberIdsRead += 1;
  }
  return { forms, cardMs };
}

function expectedFields(values: ChromiumCardValues): Partial<Record<CardField, string>> {
  return {
    member_id: expectedMemberId(values.memberIdPrinted),
    group_number: values.groupNumber,
    rx_bin: values.rxBin,
    rx_pcn: values.rxPcn,
    rx_group: values.rxGroup,
    member_name: values.memberName,
    payer_name: values.payerName,
  };
}

function describe(title: string, result: { forms: Map<CardForm, FormScore>; cardMs: number[] }): string[] {
  const sorted = [...result.cardMs].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
  const percent = (part: number, whole: number) =>
    whole === 0 ? '—' : `${((part / whole) * 100).toFixed(1)} %`;
  return [
    `    ${title}: card read p50 ${at(50).toFixed(0)} ms, p99 ${at(99).toFixed(0)} ms`,
    ...[...result.forms.entries()].map(
      ([form, tally]) =>
        `      ${form.padEnd(6)} fields exact ${percent(tally.exact, tally.printed).padStart(7)}   member id ${percent(tally.memberIdsRead, tally.memberIds).padStart(7)}   ` +
        `returned but wrong ${tally.wrong}${tally.wrongValues.length ? ` (${tally.wrongValues.join(', ')})` : ''}` +
        (tally.unread.size
          ? `\n             unread: ${[...tally.unread.entries()].map(([field, count]) => `${field} ${count}`).join(', ')}`
          : ''),
    ),
  ];
}
