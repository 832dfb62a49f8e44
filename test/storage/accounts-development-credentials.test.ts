import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import pino from 'pino';

import { loadConfig } from '../../infrastructure/config/config';
import { ConsoleUsersRepository } from '../../infrastructure/console/console-users.repository';
import { verifyPassword } from '../../infrastructure/console/passwords';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import { Database } from '../../infrastructure/storage/database';
import { migrate } from '../../infrastructure/storage/migrations';
import {
  devConsoleUserTotpCode,
  ensureDevAccount,
  ensureDevConsoleUser,
  localRuntimeConfig,
  revokeDevelopmentCredentials,
} from '../../src/bootstrap';
import { acceptedStep } from '../../src/console/people/totp';
import { openMigratedMemoryDatabase } from '../support/migrated-database';

describe("local mode's development console user", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-dev-user-'));
  const config = localRuntimeConfig(loadConfig('local', { DATA_DIR: dataDir, DATABASE_URL: '' }));
  let db: Database;
  let users: ConsoleUsersRepository;

  beforeAll(async () => {
    db = await openMigratedMemoryDatabase();
    await migrate(db);
    users = new ConsoleUsersRepository(db);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is an admin of the development account whose password stays the same from one start to the next', async () => {
    const { accountId } = await ensureDevAccount(db, config);
    const first = await ensureDevConsoleUser(db, config, accountId);
    const second = await ensureDevConsoleUser(db, config, accountId);
    expect(second).toEqual(first);

    const user = await users.findByEmail('dev@localhost');
    expect(user).toMatchObject({ account_id: accountId, display_name: 'Local developer', roles: ['admin'] });
    expect(await verifyPassword(first.password, user!.password_hash)).toBe(true);
  });

  it('has a test key, so local mode runs on the simulators and honours mock_result', async () => {
    const { apiKey } = await ensureDevAccount(db, config);
    expect(apiKey).toMatch(/^hak_test_/);
  });

  it('has its second factor set up, and the code the admin CLI prints is the one sign-in accepts', async () => {
    const { accountId } = await ensureDevAccount(db, config);
    await ensureDevConsoleUser(db, config, accountId);
    const user = await users.findByEmail('dev@localhost');
    expect(user!.totp_enabled_at).toEqual(expect.any(String));

    const secret = new SecretBox(config.encryption).openText(user!.totp_secret_sealed!);
    const now = Date.now();
    const code = devConsoleUserTotpCode(config, now)!;
    expect(acceptedStep(secret, code, now, Number(user!.totp_last_step))).toEqual(expect.any(Number));
  });

  it('gets a second factor the database agrees with when the data folder lost its secret', async () => {
    const { accountId } = await ensureDevAccount(db, config);
    await ensureDevConsoleUser(db, config, accountId);
    rmSync(path.join(dataDir, 'dev-console-totp-secret'));
    await ensureDevConsoleUser(db, config, accountId);

    const user = await users.findByEmail('dev@localhost');
    const secret = new SecretBox(config.encryption).openText(user!.totp_secret_sealed!);
    const now = Date.now();
    expect(
      acceptedStep(secret, devConsoleUserTotpCode(config, now)!, now, Number(user!.totp_last_step)),
    ).toEqual(expect.any(Number));
  });

  it('is disabled by a production start on the same database, as the development key is revoked', async () => {
    const { accountId } = await ensureDevAccount(db, config);
    await ensureDevConsoleUser(db, config, accountId);

    await revokeDevelopmentCredentials(db, pino({ level: 'silent' }));

    expect((await users.findByEmail('dev@localhost'))!.disabled_at).toEqual(expect.any(String));
  });
});
