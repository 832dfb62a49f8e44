import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../domain/project-root';

const read = (file: string) => readFileSync(path.join(projectRoot(), file), 'utf8');

describe('the documentation', () => {
  it('shows the webhook receiver exactly as the tests run it', () => {
    expect(read('docs/webhooks.md')).toContain('```ts\n' + read('examples/webhook-receiver.ts') + '```');
  });

  it('shows the events catch-up loop exactly as the tests run it', () => {
    expect(read('docs/webhooks.md')).toContain('```ts\n' + read('examples/events-catch-up.ts') + '```');
  });
});
