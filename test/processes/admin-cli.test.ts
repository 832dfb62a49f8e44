import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import { ConsoleUsersRepository } from '../../infrastructure/console/console-users.repository';
import { verifyPassword } from '../../infrastructure/console/passwords';
import { Database, openDatabase } from '../../infrastructure/storage/database';
import { placeMigratedDatabase } from '../support/migrated-database';
import { runCommand } from '../support/processes';
import { runCommandBeside, serveDataFolder, ServedDataFolder } from '../support/served-data-folder';

describe('the admin CLI', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-admin-'));
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  describe('beside the local service, through the database it serves', () => {
    const admin = (...args: string[]) => runCommandBeside('admin/cli.js', args, env);
    let served: ServedDataFolder;
    /** An account for a test about something else, made directly: `accounts:create` has a test of its own. */
    const createAccount = (name: string) => new AccountsRepository(served.db).createAccount(name);
    beforeAll(async () => {
      await placeMigratedDatabase(dataDir);
      served = await serveDataFolder(dataDir);
    });
    afterAll(() => served.close());

    it('creates an account, gives it a key shown once, lists and revokes it', async () => {
      const account = JSON.parse(
        (await admin('accounts:create', '--name', 'Lakeside Specialty Pharmacy')).stdout,
      );
      expect(account).toMatchObject({
        id: expect.stringMatching(/^acct_/),
        name: 'Lakeside Specialty Pharmacy',
      });

      const created = await admin(
        'keys:create',
        '--account',
        account.id,
        '--role',
        'provider',
        '--role',
        'reviewer',
      );
      expect(created.status).toBe(0);
      const key = JSON.parse(created.stdout);
      expect(key).toMatchObject({
        roles: ['provider', 'reviewer'],
        livemode: false,
        secret: expect.stringMatching(/^hak_test_/),
      });
      expect(created.stderr).toContain('not shown again');
      const live = JSON.parse(
        (await admin('keys:create', '--account', account.id, '--role', 'provider', '--mode', 'live')).stdout,
      );
      expect(live).toMatchObject({ livemode: true, secret: expect.stringMatching(/^hak_live_/) });
      expect(
        (await admin('keys:create', '--account', account.id, '--role', 'provider', '--mode', 'prod')).stderr,
      ).toContain('--mode takes test or live');

      const listed = await admin('keys:list', '--account', account.id);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({ id: key.id, livemode: false, revoked_at: null }),
        expect.objectContaining({ id: live.id, livemode: true }),
      ]);
      expect(listed.stdout).not.toContain(key.secret);

      expect((await admin('keys:revoke', '--key', key.id)).status).toBe(0);
      expect(await new AccountsRepository(served.db).findActiveKeyBySecret(key.secret)).toBeUndefined();
    });

    it('refuses an unknown role with usage help and exit code 2', async () => {
      const account = await createAccount('Clinic');
      const result = await admin('keys:create', '--account', account.id, '--role', 'superuser');
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('Unknown role "superuser"');
      expect(result.stderr).toContain('Usage:');
    });

    it('manages webhook endpoints with the same validation and activation check as the API', async () => {
      const account = await createAccount('Webhook clinic');
      const refused = await admin(
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
        (
          await admin(
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
          )
        ).stdout,
      );
      expect(created).toMatchObject({
        status: 'inactive',
        events: ['prior_authorization.updated'],
        secret_hint: '…t-01',
      });
      expect(JSON.stringify(created)).not.toContain('operator-made-secret-01');

      const activated = JSON.parse(
        (await admin('webhooks:update', '--webhook', created.id, '--active', 'true')).stdout,
      );
      expect(activated.status).toBe('active');

      const refusedUrl = JSON.parse(
        (
          await admin(
            'webhooks:update',
            '--webhook',
            created.id,
            '--url',
            'http://10.0.0.7/hooks',
            '--active',
            'true',
          )
        ).stdout,
      );
      expect(refusedUrl).toMatchObject({
        status: 'inactive',
        status_reason: 'activation refused: 10.0.0.7 is not a public unicast address',
      });

      expect(JSON.parse((await admin('webhooks:list', '--account', account.id)).stdout)).toHaveLength(1);
      expect((await admin('webhooks:delete', '--webhook', created.id)).status).toBe(0);
      expect(JSON.parse((await admin('webhooks:list', '--account', account.id)).stdout)).toEqual([]);
    });

    it('makes an endpoint thin with --thin true and full again with --thin false', async () => {
      const account = await createAccount('Thin clinic');
      const endpoint = [
        'webhooks:create',
        '--account',
        account.id,
        '--name',
        'Queue',
        '--url',
        'http://127.0.0.1:9/hooks',
        '--secret',
        'operator-made-secret-02',
        '--event',
        'prior_authorization.updated',
      ];
      expect((await admin(...endpoint, '--thin', 'yes')).stderr).toContain('--thin takes true or false');
      const created = JSON.parse((await admin(...endpoint, '--thin', 'true')).stdout);
      expect(created.thin).toBe(true);

      const updated = JSON.parse(
        (await admin('webhooks:update', '--webhook', created.id, '--thin', 'false')).stdout,
      );
      expect(updated.thin).toBe(false);
    });

    it('suspends and reactivates an account, lists its status and audits both in the account', async () => {
      const account = await createAccount('Suspended Pharmacy');

      const suspended = await admin('accounts:suspend', account.id);
      expect(suspended.status).toBe(0);
      expect(JSON.parse(suspended.stdout)).toMatchObject({
        status: 'suspended',
        suspended_at: expect.any(String),
      });
      const listed = JSON.parse((await admin('accounts:list')).stdout);
      expect(listed.find((entry: { id: string }) => entry.id === account.id).status).toBe('suspended');

      expect(JSON.parse((await admin('accounts:reactivate', account.id)).stdout)).toMatchObject({
        status: 'active',
        suspended_at: null,
      });
      const trail = await new AuditRepository(served.db).list(account.id, { limit: 10 });
      expect(trail.data.map((event) => [event.action, event.actor.type, event.target])).toEqual([
        ['account.reactivated', 'operator', { object: 'account', id: account.id }],
        ['account.suspended', 'operator', { object: 'account', id: account.id }],
      ]);
    });

    it('refuses to suspend an account that does not exist', async () => {
      const result = await admin('accounts:suspend', 'acct_00000000000000000000000000');
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('No account acct_00000000000000000000000000');
    });

    it("creates an account's first console user with a password piped on stdin, which it never prints", async () => {
      const account = await createAccount('First user clinic');
      const password = 'correct horse battery staple';
      const created = await runCommandBeside(
        'admin/cli.js',
        [
          'users:create',
          '--account',
          account.id,
          '--email',
          'Ana@Clinic.example',
          '--name',
          'Ana Ruiz',
          '--roles',
          'admin,reviewer',
        ],
        env,
        { input: `${password}\n` },
      );
      expect(created.status).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({
        id: expect.stringMatching(/^usr_/),
        account_id: account.id,
        email: 'Ana@Clinic.example',
        display_name: 'Ana Ruiz',
        roles: ['admin', 'reviewer'],
      });
      expect(created.stdout).not.toContain(password);

      const user = await new ConsoleUsersRepository(served.db).findByEmail('ana@clinic.example');
      expect(await verifyPassword(password, user!.password_hash)).toBe(true);
    });

    it('refuses the operator role, a taken email and a short piped password, each saying why', async () => {
      const account = await createAccount('Refusing clinic');
      const create = (email: string, roles: string, input?: string) =>
        runCommandBeside(
          'admin/cli.js',
          ['users:create', '--account', account.id, '--email', email, '--name', 'Cy', '--roles', roles],
          env,
          { input },
        );

      const operator = await create('cy@clinic.example', 'admin,operator');
      expect(operator.status).toBe(2);
      expect(operator.stderr).toContain('users:create --operator');

      expect((await create('cy@clinic.example', 'provider')).status).toBe(0);
      const taken = await create('CY@clinic.example', 'provider');
      expect(taken.status).toBe(2);
      expect(taken.stderr).toContain('already exists');

      const short = await create('dee@clinic.example', 'provider', 'short\n');
      expect(short.status).toBe(2);
      expect(short.stderr).toContain('Use at least 12 characters.');
    });

    it('creates a platform operator user in the operators account with --operator', async () => {
      const created = await admin(
        'users:create',
        '--operator',
        '--email',
        'ops@platform.example',
        '--name',
        'Ops',
      );
      expect(created.status).toBe(0);
      const user = JSON.parse(created.stdout);
      expect(user.roles).toEqual(['operator']);
      const operators = JSON.parse((await admin('accounts:list')).stdout).find(
        (entry: { name: string }) => entry.name === 'Platform operators',
      );
      expect(user.account_id).toBe(operators.id);
    });
  });

  describe('once the local service has stopped, on the data folder it holds itself', () => {
    const admin = (...args: string[]) => runCommand('admin/cli.js', args, env);

    /** The CLI holds the data folder while it runs, so the test opens the database between commands. */
    async function withDatabase<T>(work: (db: Database) => Promise<T>): Promise<T> {
      const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
      try {
        return await work(db);
      } finally {
        await db.close();
      }
    }

    it('generates and prints a password once when none is piped', async () => {
      const account = JSON.parse(admin('accounts:create', '--name', 'Generated password clinic').stdout);
      const created = admin(
        'users:create',
        '--account',
        account.id,
        '--email',
        'bo@clinic.example',
        '--name',
        'Bo',
        '--roles',
        'provider',
      );
      expect(created.status).toBe(0);
      const { password } = JSON.parse(created.stdout);
      expect(created.stderr).toContain('not shown again');

      const user = await withDatabase((db) =>
        new ConsoleUsersRepository(db).findByEmail('bo@clinic.example'),
      );
      expect(await verifyPassword(password, user!.password_hash)).toBe(true);
    });
  });
});
