import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Client as PgClient } from 'pg';

import { CUSTOM_SEARCH_ATTRIBUTES } from '../../domain/temporal/search-attributes';
import { postgresBinDir, PostgresServer } from '../../infrastructure/storage/postgres-server';
import {
  CASES_NAMESPACE_RETENTION_DAYS,
  EMBEDDED_SCHEMAS,
  ProductionTemporal,
  startProductionTemporal,
  TemporalBinaries,
} from '../../infrastructure/temporal/production-server';
import { testEnvironment } from '../harness/environment';
import { composeEnvironment, composeScript } from './compose-file';

function temporalBinaries(): Promise<TemporalBinaries> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ensureTemporalCluster } = require('../../scripts/ensure-temporal.js') as {
    ensureTemporalCluster(): Promise<TemporalBinaries>;
  };
  return ensureTemporalCluster();
}

const run = promisify(execFile);
const binDir = postgresBinDir();

/**
 * The Compose jobs' own scripts, run by bash on this machine instead of in the admin-tools image:
 * the tools they call are put on PATH under the names that image gives them, and the environment is
 * the service's, pointed at a local PostgreSQL or server.
 */
(binDir ? describe : describe.skip)('the Compose file’s Temporal jobs, run without Docker', () => {
  let postgres: PostgresServer;
  let binaries: TemporalBinaries;
  let toolsDir: string;
  let server: ProductionTemporal | undefined;

  beforeAll(async () => {
    postgres = await PostgresServer.create(binDir!);
    binaries = await temporalBinaries();
    toolsDir = mkdtempSync(path.join(os.tmpdir(), 'haa-compose-tools-'));
    symlinkSync(binaries.sqlTool, path.join(toolsDir, 'temporal-sql-tool'));
    symlinkSync(testEnvironment().temporalBinary, path.join(toolsDir, 'temporal'));
    symlinkSync(path.join(binDir!, 'psql'), path.join(toolsDir, 'psql'));
  });

  afterAll(async () => {
    await server?.stop();
    postgres?.destroy();
    if (toolsDir) rmSync(toolsDir, { recursive: true, force: true });
  });

  function runJob(name: string, overrides: Record<string, string>) {
    const env = {
      ...Object.fromEntries(
        Object.entries(composeEnvironment(name)).map(([key, value]) => [key, String(value)]),
      ),
      ...overrides,
      PATH: `${toolsDir}:${process.env.PATH}`,
      // The images' user has a home; the CLI looks for its configuration there.
      HOME: toolsDir,
    };
    return run('bash', ['-c', composeScript(name)], { env, maxBuffer: 16 * 1024 * 1024 });
  }

  const onLocalPostgres = () => ({
    TEMPORAL_DB_HOST: '127.0.0.1',
    TEMPORAL_DB_PORT: String(postgres.port),
    TEMPORAL_DB_USER: 'app',
    TEMPORAL_DB_PASSWORD: '',
  });

  async function schemaVersion(database: string): Promise<string> {
    const client = new PgClient({ host: '127.0.0.1', port: postgres.port, user: 'app', database });
    await client.connect();
    try {
      const result = await client.query('SELECT curr_version FROM schema_version WHERE db_name = $1', [
        database,
      ]);
      return result.rows[0]?.curr_version as string;
    } finally {
      await client.end();
    }
  }

  it('creates both databases and brings their schemas past the initial version, twice in a row', async () => {
    await runJob('temporal-schema', onLocalPostgres());
    await runJob('temporal-schema', onLocalPostgres());
    for (const database of Object.keys(EMBEDDED_SCHEMAS)) {
      expect(Number((await schemaVersion(database)).split('.')[0])).toBeGreaterThanOrEqual(1);
    }
  });

  it('registers a namespace with the cases’ retention and every search attribute, twice in a row', async () => {
    server = await startProductionTemporal({
      binaries,
      postgres: { host: '127.0.0.1', port: postgres.port, user: 'app', password: '' },
      workDir: path.join(toolsDir, 'server-logs'),
    });
    const namespace = 'compose-job';
    const jobEnvironment = { TEMPORAL_ADDRESS: server.address, TEMPORAL_NAMESPACE: namespace };
    await runJob('temporal-namespace', jobEnvironment);
    await runJob('temporal-namespace', jobEnvironment);

    const connection = await Connection.connect({ address: server.address });
    try {
      const described = await connection.workflowService.describeNamespace({ namespace });
      expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds)).toBe(
        CASES_NAMESPACE_RETENTION_DAYS * 24 * 60 * 60,
      );
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
      const typeNames = temporal.api.enums.v1.IndexedValueType;
      expect(
        Object.fromEntries(
          Object.entries(customAttributes ?? {}).map(([name, type]) => [
            name,
            typeNames[type].replace('INDEXED_VALUE_TYPE_', '').toLowerCase(),
          ]),
        ),
      ).toEqual(
        Object.fromEntries(
          Object.entries(CUSTOM_SEARCH_ATTRIBUTES).map(([name, type]) => [name, type.toLowerCase()]),
        ),
      );
    } finally {
      await connection.close();
    }
  });
});
