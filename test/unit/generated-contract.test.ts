import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import publishedSchemas from '../../src/contract/published-schemas.json';

const check = (script: string) => () =>
  execFileSync(process.execPath, [path.join(projectRoot(), script), '--check'], { stdio: 'pipe' });

describe('the generated contract files', () => {
  it('hold the published schemas the types in src/contract/published-objects.ts generate today', () => {
    expect(check('scripts/generate-published-schemas.js')).not.toThrow();
  });

  it("hold the TypeScript client's types that the committed API document generates today", () => {
    expect(check('scripts/generate-client.mjs')).not.toThrow();
  });

  it('type every published object to the leaf, with unknown only where an object is free-form', () => {
    const client = readFileSync(path.join(projectRoot(), 'clients/typescript/src/api.ts'), 'utf8');
    const untyped = publishedSchemas.published.flatMap((name) => {
      const start = client.indexOf(`\n        ${name}: `);
      if (start < 0) return [`${name}: not in the client`];
      const end = client.slice(start + 1).search(/\n {8}[A-Za-z0-9]+: /) + start + 1;
      return client
        .slice(start, end)
        .split('\n')
        .filter((line) => /[:|&]\s*unknown\b(?!")/.test(line) && !/\[key: string\]: unknown/.test(line))
        .map((line) => `${name}: ${line.trim()}`);
    });
    expect(untyped).toEqual([]);
  });
});
