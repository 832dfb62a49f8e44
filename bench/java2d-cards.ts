import { join } from 'node:path';

import { drawWithProgram, run, type SeededCard } from './card-program';

/**
 * Insurance cards drawn by Java 2D (bench/java2d/DrawCards.java), the renderer the reader was never
 * tuned on from issue 41's eighteenth stop until its nineteenth, when Pillow took that place: its
 * layouts, wordings and photo effects are its own. The source runs in the JDK's single-file launcher,
 * all cards of a run in one JVM.
 *
 * Licences: OpenJDK is GPL 2 with the Classpath Exception; the faces (DejaVu under the Bitstream Vera
 * licence, Liberation and Noto under the SIL Open Font License 1.1) come from Debian's packages. All are
 * used only at bench time, as an external program: never linked, never shipped, never run by the
 * service.
 */

/** The Java source, found from the compiled bench (dist/bench), which is what `npm run bench` runs. */
const SOURCE = join(__dirname, '..', '..', 'bench', 'java2d', 'DrawCards.java');

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
export function drawJava2dCards(cards: readonly SeededCard[]): Promise<Buffer[]> {
  return drawWithProgram('java', ['-Djava.awt.headless=true', SOURCE], cards);
}
