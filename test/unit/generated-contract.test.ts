import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

import { projectRoot } from '../../domain/project-root';

const check = (script: string) => () =>
  execFileSync(process.execPath, [path.join(projectRoot(), script), '--check'], { stdio: 'pipe' });

describe('the generated contract files', () => {
  it('hold the published schemas the types in src/contract/published-objects.ts generate today', () => {
    expect(check('scripts/generate-published-schemas.js')).not.toThrow();
  });

  it("hold the TypeScript client's types that the committed API document generates today", () => {
    expect(check('scripts/generate-client.mjs')).not.toThrow();
  });
});
