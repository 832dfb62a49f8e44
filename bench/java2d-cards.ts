import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { CardForm, ChromiumCardValues } from './chromium-cards';

/**
 * Insurance cards drawn by Java 2D (bench/java2d/DrawCards.java), the renderer the reader is never
 * tuned on from issue 41's eighteenth stop: its layouts, wordings and photo effects are its own, and
 * nothing in the reader is changed after looking at its results. The source runs in the JDK's
 * single-file launcher, all cards of a run in one JVM.
 *
 * Licences: OpenJDK is GPL 2 with the Classpath Exception; the faces (DejaVu under the Bitstream Vera
 * licence, Liberation and Noto under the SIL Open Font License 1.1) come from Debian's packages. All are
 * used only at bench time, as an external program: never linked, never shipped, never run by the
 * service.
 */

const run = promisify(execFile);

/** The Java source, found from the compiled bench (dist/bench), which is what `npm run bench` runs. */
const SOURCE = join(__dirname, '..', '..', 'bench', 'java2d', 'DrawCards.java');

export interface Java2dCard {
  values: ChromiumCardValues;
  form: CardForm;
  seed: number;
}

/** Whether this machine has a JDK whose launcher runs a single source file (Java 11 or later). */
export async function java2dAvailable(): Promise<boolean> {
  try {
    const { stderr } = await run('java', ['-version']);
    const major = Number(/version "(\d+)/.exec(stderr)?.[1] ?? 0);
    return major >= 11;
  } catch {
    return false;
  }
}

/** Draws the cards in one run of the JVM; each is a PNG (scan) or a JPEG (photo). */
export async function drawJava2dCards(cards: readonly Java2dCard[]): Promise<Buffer[]> {
  const folder = await mkdtemp(join(tmpdir(), 'java2d-cards-'));
  try {
    const files = cards.map((card, index) =>
      join(folder, `${index}.${card.form === 'scan' ? 'png' : 'jpg'}`),
    );
    const lines = cards.map((card, index) => {
      const { values } = card;
      const cells = [
        String(card.seed),
        card.form,
        files[index],
        values.payerName,
        values.memberName,
        values.memberIdPrinted,
        values.groupNumber,
        values.rxBin,
        values.rxPcn,
        values.rxGroup,
      ];
      if (cells.some((cell) => /[\t\n]/.test(cell)))
        throw new Error('A card value holds a tab or a line break');
      return cells.join('\t');
    });
    const running = run('java', ['-Djava.awt.headless=true', SOURCE], { maxBuffer: 1024 * 1024 });
    running.child.stdin?.end(`${lines.join('\n')}\n`);
    await running;
    return await Promise.all(files.map((file) => readFile(file)));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
