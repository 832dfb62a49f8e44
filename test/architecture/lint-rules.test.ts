import { readdirSync } from 'node:fs';
import * as path from 'node:path';

import { ESLint } from 'eslint';

import { projectRoot } from '../../infrastructure/project-root';

/** Lints source text as if it lived at `file`, with the project's own ESLint configuration. */
async function lint(file: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: projectRoot() });
  const [result] = await eslint.lintText(code, { filePath: path.join(projectRoot(), file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe('the lint rules', () => {
  it('refuse Node built-ins and I/O clients in workflow code', async () => {
    const rules = await lint(
      'workflows/index.ts',
      "import { readFileSync } from 'node:fs';\nimport { Client } from '@temporalio/client';\nexport const x = [readFileSync, Client];\n",
    );
    expect(rules.filter((rule) => rule === '@typescript-eslint/no-restricted-imports')).toHaveLength(2);
  });

  it('let workflow code import activities by type only', async () => {
    const byValue = await lint(
      'workflows/index.ts',
      "import { createActivities } from '../activities';\nexport const x = createActivities;\n",
    );
    expect(byValue).toContain('@typescript-eslint/no-restricted-imports');
    const byType = await lint(
      'workflows/index.ts',
      "import type { createActivities } from '../activities';\nexport type X = typeof createActivities;\n",
    );
    expect(byType).not.toContain('@typescript-eslint/no-restricted-imports');
  });

  it('refuse app and infrastructure code in workflow code, even as types', async () => {
    const rules = await lint(
      'workflows/index.ts',
      "import type { AppConfig } from '../infrastructure/config/config';\nimport type { ApiKeysService } from '../src/auth/api-keys.service';\nexport type X = [AppConfig, ApiKeysService];\n",
    );
    expect(rules.filter((rule) => rule === '@typescript-eslint/no-restricted-imports')).toHaveLength(2);
  });

  it('refuse timers and the environment in workflow code', async () => {
    const rules = await lint(
      'workflows/index.ts',
      'export const x = () => setTimeout(() => process.exit(1), 10);\n',
    );
    expect(rules.filter((rule) => rule === 'no-restricted-globals')).toHaveLength(2);
  });

  it("refuse the SDK's internal modules anywhere", async () => {
    const rules = await lint(
      'infrastructure/webhooks/webhook-publisher.ts',
      "import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';\nexport const x = decodeFromPayloadsAtIndex;\n",
    );
    expect(rules).toContain('@typescript-eslint/no-restricted-imports');
  });

  it('refuse a function of more than 80 lines in a workflow, which should read as its steps', async () => {
    const functionOf = (lines: number) =>
      [
        'export function steps(): number[] {',
        '  return [',
        ...Array(lines - 4).fill('    1,'),
        '  ];',
        '}',
      ].join('\n');
    const file = 'workflows/prior-authorization.workflow.ts';
    expect(await lint(file, functionOf(80))).not.toContain('max-lines-per-function');
    expect(await lint(file, functionOf(81))).toContain('max-lines-per-function');
    // No workflow is exempt by name.
    const workflows = readdirSync(path.join(projectRoot(), 'workflows')).filter((name) =>
      name.endsWith('.workflow.ts'),
    );
    const unchecked: string[] = [];
    for (const name of workflows) {
      const rules = await lint(`workflows/${name}`, functionOf(81));
      if (!rules.includes('max-lines-per-function')) unchecked.push(name);
    }
    expect(unchecked).toEqual([]);
  });

  it('refuse a floating promise anywhere', async () => {
    const rules = await lint(
      'domain/ids.ts',
      'async function work(): Promise<void> {}\nexport function run(): void {\n  work();\n}\n',
    );
    expect(rules).toContain('@typescript-eslint/no-floating-promises');
  });
});
