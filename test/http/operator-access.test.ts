import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { defaultPayloadConverter } from '@temporalio/common';

import { openDatabase } from '../../infrastructure/storage/database';
import { placeMigratedDatabase } from '../support/migrated-database';
import { runCommand } from '../support/processes';
import { bearer, startTestApp, testConfig, TestApp } from '../support/test-app';

describe('operator keys from the platform admin CLI', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-operator-'));
  const admin = (...args: string[]) =>
    runCommand('admin/cli.js', args, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' });
  let operator: { id: string; account_id: string; roles: string[]; secret: string };
  let testApp: TestApp | undefined;

  beforeAll(async () => {
    await placeMigratedDatabase(dataDir);
    const created = admin('operator-keys:create', '--label', 'Temporal Web on call');
    expect(created.status).toBe(0);
    operator = JSON.parse(created.stdout);
  });
  afterAll(async () => {
    await testApp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates an operator key in one platform account that holds no customer', () => {
    expect(operator).toMatchObject({ roles: ['operator'], secret: expect.stringMatching(/^hak_/) });
    const second = JSON.parse(admin('operator-keys:create').stdout);
    expect(second.account_id).toBe(operator.account_id);
    const accounts = JSON.parse(admin('accounts:list').stdout);
    expect(accounts.filter((account: { name: string }) => account.name === 'Platform operators')).toEqual([
      expect.objectContaining({ id: operator.account_id }),
    ]);
  });

  it('refuses to put the operator role on an ordinary key', () => {
    const account = JSON.parse(admin('accounts:create', '--name', 'Clinic').stdout);
    const result = admin('keys:create', '--account', account.id, '--role', 'operator');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('operator-keys:create');
  });

  it('refuses an account that takes the platform account’s name', () => {
    const result = admin('accounts:create', '--name', 'Platform operators');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('reserved');
  });

  it('gives Temporal Web the codec with the key it printed', async () => {
    testApp = await startTestApp(
      {},
      { config: testConfig(), db: await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') }) },
    );
    const payload = defaultPayloadConverter.toPayload({ note: 'operator round trip' });
    const plain = {
      metadata: { encoding: Buffer.from(payload.metadata!.encoding!).toString('base64') },
      data: Buffer.from(payload.data!).toString('base64'),
    };
    const encoded = await testApp
      .http()
      .post('/codec/encode')
      .set(bearer(operator.secret))
      .send({ payloads: [plain] });
    expect(encoded.status).toBe(200);
    const decoded = await testApp
      .http()
      .post('/codec/decode')
      .set(bearer(operator.secret))
      .send(encoded.body);
    expect(decoded.body.payloads[0]).toEqual(plain);
  });
});
