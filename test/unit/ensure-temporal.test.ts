import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { projectRoot } from '../../domain/project-root';
import { testEnvironment } from '../harness/environment';

const SCRIPT = path.join(projectRoot(), 'scripts', 'ensure-temporal.js');

describe('resolving the Temporal CLI', () => {
  const sandbox = mkdtempSync(path.join(os.tmpdir(), 'haa-ensure-'));
  // A PATH holding node and nothing else: no go, no temporal.
  const nodeOnlyBin = path.join(sandbox, 'bin');
  mkdirSync(nodeOnlyBin);
  symlinkSync(process.execPath, path.join(nodeOnlyBin, 'node'));
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

  const resolve = (env: Record<string, string>) =>
    spawnSync(process.execPath, [SCRIPT], {
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
});
