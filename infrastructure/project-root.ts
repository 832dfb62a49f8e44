import { existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * The folder holding package.json. Shipped data (migrations, catalogs) lives there, and the code
 * reaching it runs both from its source folder under ts-jest and from the compiled `dist/`.
 */
export function projectRoot(from = __dirname): string {
  let directory = from;
  while (!existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`No package.json above ${from}`);
    directory = parent;
  }
  return directory;
}
