import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import * as benefitVerification from '../../workflows/benefit-verification.messages';
import * as everyCase from '../../workflows/case.messages';
import * as patientEnrollment from '../../workflows/patient-enrollment.messages';
import * as priorAuthorization from '../../workflows/prior-authorization.messages';

const MESSAGE_FILES = { everyCase, benefitVerification, priorAuthorization, patientEnrollment };

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
    const folder = path.join(__dirname, '..', '..', 'workflows');
    const definingElsewhere = readdirSync(folder).filter(
      (file) =>
        !file.endsWith('.messages.ts') &&
        /define(Signal|Update|Query)\s*[<(]/.test(readFileSync(path.join(folder, file), 'utf8')),
    );
    expect(definingElsewhere).toEqual([]);
  });

  it.each(definitions)(
    'are named in code as Temporal names them: $exportName',
    ({ exportName, definition }) => {
      const kind = definition.type[0]!.toUpperCase() + definition.type.slice(1);
      expect(exportName).toBe(`${definition.name}${kind}`);
    },
  );
});
