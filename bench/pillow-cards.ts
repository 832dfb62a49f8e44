import { join } from 'node:path';

import { drawWithProgram, run, type SeededCard } from './card-program';

/**
 * Insurance cards drawn by Pillow on FreeType (bench/pillow/draw_cards.py), the renderer the reader is
 * never tuned on from issue 41's nineteenth stop: its faces (Open Sans, Lato, Roboto, Cantarell, GNU
 * FreeFont, Hack), its layouts (a banner, labels against a rule, fields between bars, the payer at the
 * bottom), its label wordings and distractors (an issuer number, copays, dates) and its photo effects
 * (a phone's EXIF orientation among them) are its own, and nothing in the reader is changed after
 * looking at its results.
 *
 * Licences: Pillow is MIT-CMU; the faces come from Debian's packages under the Apache License 2.0 (Open
 * Sans, Roboto), the SIL Open Font License 1.1 (Lato, Cantarell), the GPL 3 with the font exception
 * (FreeFont) and the MIT licence (Hack). All are used only at bench time, as an external program.
 */

const ROOT = join(__dirname, '..', '..');
/** The Python source and its pinned Pillow, found from the compiled bench (dist/bench). */
const SOURCE = join(ROOT, 'bench', 'pillow', 'draw_cards.py');
const REQUIREMENTS = join(ROOT, 'bench', 'pillow', 'requirements.txt');

/** The Debian packages holding the faces the renderer draws in. */
export const PILLOW_FACE_PACKAGES =
  'fonts-open-sans fonts-lato fonts-roboto-unhinted fonts-cantarell fonts-freefont-ttf fonts-hack';

let python: Promise<string> | undefined;

/**
 * The Python of a virtual environment holding the pinned Pillow, installed from PyPI when missing;
 * found once a run.
 */
function pillowPython(): Promise<string> {
  python ??= run('bash', [join(ROOT, 'scripts', 'ensure-python-tools.sh')], {
    env: { ...process.env, PYTHON_TOOLS_LIST: REQUIREMENTS },
  }).then(({ stdout }) => join(stdout.trim(), 'bin', 'python'));
  return python;
}

/** Why Pillow's cards cannot be drawn here, or null when they can. */
export async function pillowUnavailable(): Promise<string | null> {
  let python: string;
  try {
    python = await pillowPython();
  } catch {
    return 'no Python 3 with venv, or PyPI out of reach, to install Pillow';
  }
  try {
    await run(python, [SOURCE, '--check']);
    return null;
  } catch {
    return `faces missing (apt-get install ${PILLOW_FACE_PACKAGES})`;
  }
}

/** Draws the cards in one run of Python; each is a PNG (scan) or a JPEG (photo). */
export async function drawPillowCards(cards: readonly SeededCard[]): Promise<Buffer[]> {
  return drawWithProgram(await pillowPython(), [SOURCE], cards);
}
