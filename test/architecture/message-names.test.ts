import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const WORKFLOWS = path.join(__dirname, '..', '..', 'workflows');

/**
 * Every messages file beside the workflows, found on disk so that none escapes the checks below: the
 * messages every case takes (`case.messages.ts`) and each workflow's own, named after it.
 */
const MESSAGE_FILE_NAMES = readdirSync(WORKFLOWS).filter((file) => file.endsWith('.messages.ts'));
const WORKFLOW_FILE_NAMES = readdirSync(WORKFLOWS).filter((file) => file.endsWith('.workflow.ts'));
const MESSAGE_FILES: Record<string, Record<string, unknown>> = Object.fromEntries(
  // Loaded by the names found, which a static import cannot do.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  MESSAGE_FILE_NAMES.map((file) => [file, require(path.join(WORKFLOWS, file)) as Record<string, unknown>]),
);

interface MessageDefinition {
  type: 'signal' | 'update' | 'query';
  name: string;
}

function isMessageDefinition(value: unknown): value is MessageDefinition {
  const candidate = value as Partial<MessageDefinition>;
  return typeof candidate?.name === 'string' && ['signal', 'update', 'query'].includes(candidate.type ?? '');
}

const definitions = Object.entries(MESSAGE_FILES).flatMap(([file, exports]) =>
  Object.entries(exports)
    .filter(([, value]) => isMessageDefinition(value))
    .map(([exportName, value]) => ({ file, exportName, definition: value as MessageDefinition })),
);

describe('workflow messages', () => {
  it('are defined only in the messages files beside their workflows', () => {
    const definingElsewhere = readdirSync(WORKFLOWS).filter(
      (file) =>
        !file.endsWith('.messages.ts') &&
        /define(Signal|Update|Query)\s*[<(]/.test(readFileSync(path.join(WORKFLOWS, file), 'utf8')),
    );
    expect(definingElsewhere).toEqual([]);
  });

  it('live in the file every case shares or beside the one workflow they belong to, named after it', () => {
    const strays = MESSAGE_FILE_NAMES.filter(
      (file) =>
        file !== 'case.messages.ts' &&
        !WORKFLOW_FILE_NAMES.includes(file.replace(/\.messages\.ts$/, '.workflow.ts')),
    );
    expect(strays).toEqual([]);
    expect(MESSAGE_FILE_NAMES).toContain('case.messages.ts');
  });

  it.each(definitions)(
    'are named in code as Temporal names them: $exportName',
    ({ exportName, definition }) => {
      const kind = definition.type[0]!.toUpperCase() + definition.type.slice(1);
      expect(exportName).toBe(`${definition.name}${kind}`);
    },
  );
});
