import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';

/**
 * The Python of the tools CI installs (scripts/ensure-python-tools.sh, pinned in
 * scripts/python-tools.txt), where that script puts them; it may not exist on a machine that never ran it.
 */
export function pythonToolsPython(): string {
  const venv = execFileSync(
    'bash',
    [path.join(projectRoot(), 'scripts', 'ensure-python-tools.sh'), '--path'],
    {
      encoding: 'utf8',
    },
  ).trim();
  return path.join(venv, 'bin', 'python');
}
