import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { load } from 'js-yaml';

import { projectRoot } from '../../infrastructure/project-root';
import { TEMPORAL_MEMORY } from '../../infrastructure/temporal/temporal-memory';
import { CHILD_DEFAULT_ENV } from '../../src/local/child-processes';

type ComposeService = {
  command?: string[];
  environment?: Record<string, unknown>;
  image?: string;
  build?: string;
};

describe('the scale-mode deployment description', () => {
  const compose = load(readFileSync(path.join(projectRoot(), 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, ComposeService>;
  };

  it('describes Temporal on PostgreSQL, Temporal Web, the API and the workers', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'api',
      'postgresql',
      'temporal',
      'temporal-namespace',
      'temporal-schema',
      'temporal-ui',
      'worker',
    ]);
    expect(compose.services.temporal!.environment).toMatchObject({ TEMPORAL_DB_HOST: 'postgresql' });
  });

  it('runs the API and the worker from entry points the build produces', () => {
    for (const service of ['api', 'worker']) {
      const [, entry] = compose.services[service]!.command!;
      expect(entry).toMatch(/^dist\/src\/main\.(api|worker)\.js$/);
      expect(existsSync(path.join(projectRoot(), 'src', path.basename(entry!).replace(/\.js$/, '.ts')))).toBe(
        true,
      );
    }
  });

  it('gives the API and the worker the same Temporal, database and encryption settings', () => {
    const settings = ['TEMPORAL_ADDRESS', 'DATABASE_URL', 'PAYLOAD_ENCRYPTION_KEYS'];
    for (const key of settings) {
      expect(compose.services.api!.environment![key]).toBeDefined();
      expect(compose.services.worker!.environment![key]).toEqual(compose.services.api!.environment![key]);
    }
  });

  it('documents in .env.example every variable the configuration reads', () => {
    const documented = readFileSync(path.join(projectRoot(), '.env.example'), 'utf8');
    const source = readFileSync(path.join(projectRoot(), 'infrastructure', 'config', 'config.ts'), 'utf8');
    const read = new Set(
      [...source.matchAll(/(?:text|integer|flag)\('([A-Z_]+)'/g)].map((match) => match[1]!),
    );
    for (const key of ['DATABASE_URL', 'PAYLOAD_ENCRYPTION_KEYS', 'PAYLOAD_ENCRYPTION_KEY_ID', ...read]) {
      expect(documented).toContain(key);
    }
  });

  it("gives the image's processes the memory settings the launchers give their children", () => {
    const dockerfile = readFileSync(path.join(projectRoot(), 'Dockerfile'), 'utf8');
    const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM ')).split('\n');
    for (const [key, value] of Object.entries(CHILD_DEFAULT_ENV)) {
      expect(runtimeStage).toContain(`ENV ${key}=${value}`);
    }
  });

  it("bounds the Temporal server's history cache and Go heap as the launchers do", () => {
    const dynamicConfig = load(
      readFileSync(path.join(projectRoot(), 'deploy', 'temporal', 'dynamicconfig.yaml'), 'utf8'),
    ) as Record<string, [{ value: unknown }]>;
    expect(dynamicConfig['history.hostLevelCacheMaxSize']![0].value).toBe(
      TEMPORAL_MEMORY.historyCacheEntries,
    );
    expect(compose.services.temporal!.environment).toMatchObject({
      GOMEMLIMIT: TEMPORAL_MEMORY.goMemoryLimit,
    });
  });
});
