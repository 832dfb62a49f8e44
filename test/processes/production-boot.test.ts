import { randomUUID } from 'node:crypto';

import { freePort } from '../../infrastructure/temporal/dev-server';
import { testEnvironment } from '../harness/environment';
import { postgresBinDir, PostgresServer } from '../../infrastructure/storage/postgres-server';
import { readJson, startProcess } from '../support/processes';
import { randomEncryptionKeys } from '../support/test-app';

const devApiKey = () => `hak_dev_${randomUUID().replace(/-/g, '')}`;

/** Everything a scale-mode process needs to start, except the database it is given. */
const scaleModeEnv = async (databaseUrl: string) => ({
  TEMPORAL_ADDRESS: testEnvironment().temporalAddress,
  TEMPORAL_NAMESPACE: testEnvironment().namespace,
  TEMPORAL_TASK_QUEUE: `production-boot-${randomUUID()}`,
  DATABASE_URL: databaseUrl,
  PAYLOAD_ENCRYPTION_KEYS: randomEncryptionKeys(),
  PATIENT_REF_KEY: randomEncryptionKeys().split(':')[1]!,
  PORT: String(await freePort()),
  LOG_LEVEL: 'info',
});

describe('a production start with DEV_API_KEY set', () => {
  it.each(['main.api.js', 'main.worker.js'])(
    '%s exits non-zero and says DEV_API_KEY is refused in production',
    async (entry) => {
      // Configuration is checked before any connection, so no database needs to listen here.
      const env = await scaleModeEnv('postgres://app@127.0.0.1:1/unused');
      const started = startProcess(entry, { ...env, NODE_ENV: 'production', DEV_API_KEY: devApiKey() });
      expect(await started.waitForExit(60_000)).not.toBe(0);
      expect(started.output()).toContain('DEV_API_KEY is refused in production');
      expect(started.output()).toContain('keys:create');
    },
  );
});

const binDir = postgresBinDir();
const describeWithPostgres = binDir ? describe : describe.skip;
if (!binDir) test.todo('revoking development keys at a production start (needs PostgreSQL installed)');

describeWithPostgres('a production start on a database a development start used', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await PostgresServer.create(binDir!);
  });
  afterAll(() => postgres?.destroy());

  it('revokes the development key that start left behind and logs which key it revoked', async () => {
    const key = devApiKey();
    const listWebhooks = (port: string) =>
      fetch(`http://127.0.0.1:${port}/webhooks`, { headers: { Authorization: `Bearer ${key}` } });

    const developmentEnv = await scaleModeEnv(postgres.databaseUrl);
    const development = startProcess('main.api.js', {
      ...developmentEnv,
      NODE_ENV: 'development',
      DEV_API_KEY: key,
    });
    await development.waitForOutput(/API listening/);
    expect((await listWebhooks(developmentEnv.PORT)).status).toBe(200);
    expect(await development.stop('SIGTERM')).toBe(0);

    const productionEnv = await scaleModeEnv(postgres.databaseUrl);
    const production = startProcess('main.api.js', { ...productionEnv, NODE_ENV: 'production' });
    try {
      await production.waitForOutput(/API listening/);
      const refused = await listWebhooks(productionEnv.PORT);
      expect(refused.status).toBe(401);
      expect((await readJson(refused)).error.code).toBe('unauthorized');
      const revocation = production
        .output()
        .split('\n')
        .find((line) => line.includes('revoked development API keys'));
      expect(JSON.parse(revocation!)).toMatchObject({ level: 'warn', api_key_ids: [expect.any(String)] });
      expect(production.output()).not.toContain(key);
    } finally {
      await production.stop('SIGTERM');
    }
  });
});
