import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { testEnvironment } from '../harness/environment';

const SCRIPT = path.join(projectRoot(), 'scripts', 'ensure-temporal.js');

describe('resolving the Temporal CLI', () => {
  const sandbox = mkdtempSync(path.join(os.tmpdir(), 'haa-ensure-'));
  // A PATH holding node and nothing else: no go, no temporal.
  const nodeOnlyBin = path.join(sandbox, 'bin');
  mkdirSync(nodeOnlyBin);
  symlinkSync(process.execPath, path.join(nodeOnlyBin, 'node'));
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  const resolve = (env: Record<string, string>, binaries: string[] = []) =>
    spawnSync(process.execPath, [SCRIPT, ...binaries], {
      env: { PATH: nodeOnlyBin, HOME: sandbox, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('uses the binary named by TEMPORAL_CLI_PATH first', () => {
    const result = resolve({ TEMPORAL_CLI_PATH: testEnvironment().temporalBinary });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(testEnvironment().temporalBinary);
  });

  it('uses a cached build when nothing else is named', () => {
    const cacheDir = path.join(sandbox, 'cache');
    mkdirSync(cacheDir);
    symlinkSync(testEnvironment().temporalBinary, path.join(cacheDir, 'temporal'));
    const result = resolve({ TEMPORAL_CLI_CACHE_DIR: cacheDir });
    expect(result.stdout.trim()).toBe(path.join(cacheDir, 'temporal'));
  });

  it('says exactly what to install when there is neither a binary nor Go', () => {
    const result = resolve({ TEMPORAL_CLI_CACHE_DIR: path.join(sandbox, 'empty-cache') });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Go is not installed');
    expect(result.stderr).toContain('Go 1.25 or newer');
    expect(result.stderr).toContain('TEMPORAL_CLI_PATH');
  });

  it('refuses a TEMPORAL_CLI_PATH that is not the Temporal CLI', () => {
    const result = resolve({ TEMPORAL_CLI_PATH: process.execPath });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('does not run as the Temporal CLI');
  });

  /** A stand-in that answers `--version` as the real binary does, which is all resolution looks at. */
  function fakeBinary(folder: string, name: string, versionLine: string): string {
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, name);
    writeFileSync(file, `#!/bin/sh\necho '${versionLine}'\n`, { mode: 0o755 });
    return file;
  }

  it('resolves each binary of the scale shape from its environment variable', () => {
    const folder = path.join(sandbox, 'named');
    const env = {
      TEMPORAL_SERVER_PATH: fakeBinary(folder, 'server', 'temporal version 1.29.1'),
      TEMPORAL_SQL_TOOL_PATH: fakeBinary(folder, 'sql', 'temporal-sql-tool version 1.29.1'),
      TEMPORAL_UI_SERVER_PATH: fakeBinary(folder, 'ui', 'Temporal UI version 2.42.1'),
    };
    const result = resolve(env, ['server', 'sql-tool', 'ui-server']);
    expect(result.stdout.trim().split('\n')).toEqual([
      `server=${env.TEMPORAL_SERVER_PATH}`,
      `sql-tool=${env.TEMPORAL_SQL_TOOL_PATH}`,
      `ui-server=${env.TEMPORAL_UI_SERVER_PATH}`,
    ]);
  });

  it('uses a temporal-server on PATH only at the pinned version', () => {
    const pinned = path.join(sandbox, 'pinned-bin');
    fakeBinary(pinned, 'temporal-server', 'temporal version 1.29.1');
    const older = path.join(sandbox, 'older-bin');
    fakeBinary(older, 'temporal-server', 'temporal version 1.28.0');
    const cache = { TEMPORAL_SERVER_CACHE_DIR: path.join(sandbox, 'empty-server-cache') };

    const found = resolve({ ...cache, PATH: `${nodeOnlyBin}:${pinned}` }, ['server']);
    const skipped = resolve({ ...cache, PATH: `${nodeOnlyBin}:${older}` }, ['server']);

    expect(found.stdout.trim()).toBe(`server=${path.join(pinned, 'temporal-server')}`);
    expect(skipped.status).toBe(1);
    expect(skipped.stderr).toContain('TEMPORAL_SERVER_PATH');
  });

  it('does not take the Temporal CLI for the Temporal server', () => {
    const result = resolve({ TEMPORAL_SERVER_PATH: testEnvironment().temporalBinary }, ['server']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('does not run as the Temporal server');
  });
});
