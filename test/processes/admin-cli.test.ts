import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { openDatabase } from '../../infrastructure/storage/database';
import { AccountsRepository } from '../../src/auth/accounts.repository';
import { runCommand } from '../support/processes';

describe('the admin CLI', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-admin-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' };
  const admin = (...args: string[]) => runCommand('admin/cli.js', args, env);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an account, gives it a key shown once, lists and revokes it', async () => {
    const account = JSON.parse(admin('accounts:create', '--name', 'Lakeside Specialty Pharmacy').stdout);
    expect(account).toMatchObject({
      id: expect.stringMatching(/^acct_/),
      name: 'Lakeside Specialty Pharmacy',
    });

    const created = admin('keys:create', '--account', account.id, '--role', 'provider', '--role', 'reviewer');
    expect(created.status).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ roles: ['provider', 'reviewer'], secret: expect.stringMatching(/^hak_/) });
    expect(created.stderr).toContain('not shown again');

    const listed = admin('keys:list', '--account', account.id);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ id: key.id, revoked_at: null })]);
    expect(listed.stdout).not.toContain(key.secret);

    expect(admin('keys:revoke', '--key', key.id).status).toBe(0);
    const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      expect(await new AccountsRepository(db).findActiveKeyBySecret(key.secret)).toBeUndefined();
    } finally {
      await db.close();
    }
  });

  it('refuses an unknown role with usage help and exit code 2', () => {
    const account = JSON.parse(admin('accounts:create', '--name', 'Clinic').stdout);
    const result = admin('keys:create', '--account', account.id, '--role', 'superuser');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown role "superuser"');
    expect(result.stderr).toContain('Usage:');
  });

  it('manages webhook endpoints with the same validation and activation check as the API', () => {
    const account = JSON.parse(admin('accounts:create', '--name', 'Webhook clinic').stdout);
    const refused = admin(
      'webhooks:create',
      '--account',
      account.id,
      '--name',
      'x',
      '--url',
      'ftp://x',
      '--secret',
      'short',
      '--event',
      'nope',
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--url');
    expect(refused.stderr).toContain('--secret');
    expect(refused.stderr).toContain('--events');

    const created = JSON.parse(
      admin(
        'webhooks:create',
        '--account',
        account.id,
        '--name',
        'Pharmacy',
        '--url',
        'http://127.0.0.1:9/hooks',
        '--secret',
        'operator-made-secret-01',
        '--event',
        'Prior Authorization Updated',
      ).stdout,
    );
    expect(created).toMatchObject({
      status: 'inactive',
      events: ['prior_authorization.updated'],
      secret_hint: '…t-01',
    });
    expect(JSON.stringify(created)).not.toContain('operator-made-secret-01');

    const activated = JSON.parse(
      admin('webhooks:update', '--webhook', created.id, '--active', 'true').stdout,
    );
    expect(activated.status).toBe('active');

    const refusedUrl = JSON.parse(
      admin('webhooks:update', '--webhook', created.id, '--url', 'http://10.0.0.7/hooks', '--active', 'true')
        .stdout,
    );
    expect(refusedUrl).toMatchObject({
      status: 'inactive',
      status_reason: 'activation refused: 10.0.0.7 is not a public unicast address',
    });

    expect(JSON.parse(admin('webhooks:list', '--account', account.id).stdout)).toHaveLength(1);
    expect(admin('webhooks:delete', '--webhook', created.id).status).toBe(0);
    expect(JSON.parse(admin('webhooks:list', '--account', account.id).stdout)).toEqual([]);
  });
});
