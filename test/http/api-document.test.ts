import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../domain/project-root';
import { startTestApp, TestApp } from '../support/test-app';

const COMMITTED = path.join(projectRoot(), 'docs/api/openapi.json');

describe('the committed API document', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());

  // `npm run api:document` runs this test with WRITE_API_DOCUMENT=1 to write the file it compares.
  it('is the document the service serves', async () => {
    const served = `${JSON.stringify((await testApp.http().get('/openapi.json')).body, null, 2)}\n`;
    if (process.env.WRITE_API_DOCUMENT === '1') writeFileSync(COMMITTED, served);
    const committed = readFileSync(COMMITTED, 'utf8');
    expect({
      'docs/api/openapi.json': committed === served ? 'current' : 'stale: run npm run api:document',
    }).toEqual({ 'docs/api/openapi.json': 'current' });
  });
});
