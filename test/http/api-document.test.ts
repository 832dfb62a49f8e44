import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { API_VERSION } from '../../src/common/http-edge';
import { startTestApp, TestApp } from '../support/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { releaseDocuments } = require('../../scripts/api-releases') as {
  releaseDocuments(): Array<{ version: string; file: string }>;
};

describe('the API document of the current release', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());

  // `npm run api:document` runs this test with WRITE_API_DOCUMENT=1 to write the file it compares.
  it('is the document the service serves, committed under its API-Version', async () => {
    const file = path.join(projectRoot(), 'docs/api/releases', `${API_VERSION}.json`);
    const served = `${JSON.stringify((await testApp.http().get('/openapi.json')).body, null, 2)}\n`;
    if (process.env.WRITE_API_DOCUMENT === '1') writeFileSync(file, served);
    const committed = readFileSync(file, 'utf8');
    expect({ [file]: committed === served ? 'current' : 'stale: run npm run api:document' }).toEqual({
      [file]: 'current',
    });
  });

  it('is the newest release, and CHANGELOG.md opens with that release', () => {
    expect(releaseDocuments().at(-1)?.version).toBe(API_VERSION);
    const changelog = readFileSync(path.join(projectRoot(), 'CHANGELOG.md'), 'utf8');
    expect(changelog.match(/^## (\d{4}-\d{2}-\d{2})$/m)?.[1]).toBe(API_VERSION);
  });
});
