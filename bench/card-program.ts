import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { CardForm, ChromiumCardValues } from './chromium-cards';

export const run = promisify(execFile);

/** A card for a renderer that runs as a program of its own: what it prints, its form and its seed. */
export interface SeededCard {
  values: ChromiumCardValues;
  form: CardForm;
  seed: number;
}

/**
 * Draws the cards in one run of a renderer program. Each card is one tab-separated line on its
 * standard input: seed, form, the file to write, then payer, member name, member id as printed,
 * group, BIN, PCN and RxGroup. The program writes a PNG for a scan and a JPEG for a photo.
 */
export async function drawWithProgram(
  command: string,
  args: readonly string[],
  cards: readonly SeededCard[],
): Promise<Buffer[]> {
  const folder = await mkdtemp(join(tmpdir(), 'rendered-cards-'));
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
    const running = run(command, [...args], { maxBuffer: 1024 * 1024 });
    running.child.stdin?.end(`${lines.join('\n')}\n`);
    await running;
    return await Promise.all(files.map((file) => readFile(file)));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
