import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { postgresBinDir } from '../../infrastructure/storage/postgres-server';
import { freePortRun, isPortFree } from '../../infrastructure/temporal/dev-server';
import { CLUSTER_PORTS, clusterPortSettings } from '../../src/local/cluster-ports';
import { isProcessAlive, readJson, RunningProcess, startProcess } from '../support/processes';
import { eventually } from '../support/test-app';

const runsHere = Boolean(postgresBinDir()) || process.env.REQUIRE_CLUSTER === '1';
const describeWithPostgres = runsHere ? describe : describe.skip;
if (!runsHere) test.todo('npm run start:cluster (needs Debian PostgreSQL; CI sets REQUIRE_CLUSTER=1)');

function bannerValue(output: string, label: string): string {
  const match = new RegExp(`^  ${label.replace(/[()]/g, '\\$&')}:\\s+(\\S+)`, 'm').exec(output);
  if (!match) throw new Error(`The banner has no "${label}" line:\n${output}`);
  return match[1]!;
}

describeWithPostgres('npm run start:cluster', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-cluster-launcher-'));
  // As root, PostgreSQL runs as its own user, who must be able to reach its folder inside this one.
  chmodSync(dataDir, 0o755);
  let launcher: RunningProcess;
  let banner: string;

  beforeAll(async () => {
    launcher = startProcess('main.cluster.js', {
      DATA_DIR: dataDir,
      ...clusterPortSettings(await freePortRun(CLUSTER_PORTS)),
      LOG_LEVEL: 'warn',
    });
    await launcher.waitForOutput(/Press Ctrl-C to stop everything/, 240_000);
    banner = launcher.output();
  }, 300_000);

  afterAll(async () => {
    await launcher?.stop('SIGINT', 60_000);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses ports that overlap before it starts anything, naming the settings to change', async () => {
    const port = await freePortRun(2);
    const clashDataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-cluster-clash-'));
    const clashing = startProcess('main.cluster.js', {
      DATA_DIR: clashDataDir,
      PORT: String(port),
      METRICS_PORT: String(port - 1),
    });
    expect(await clashing.waitForExit(60_000)).toBe(1);
    rmSync(clashDataDir, { recursive: true, force: true });
    expect(clashing.output()).toContain("The cluster's ports overlap");
    expect(clashing.output()).toContain('METRICS_PORT');
  });

  it('serves the API from two processes that answer with the printed key', async () => {
    const apiKey = bannerValue(banner, 'Dev API key');
    for (const name of ['api-1', 'api-2']) {
      const response = await fetch(`${bannerValue(banner, `API (${name})`)}/status`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
      expect((await readJson(response)).data.components).toMatchObject({
        database: { status: 'ok' },
        temporal: { status: 'ok' },
      });
    }
  });

  it('serves Temporal Web on the printed address, opening on the cases namespace', async () => {
    const response = await fetch(`${bannerValue(banner, 'Temporal Web')}/api/v1/settings`);
    expect(await readJson(response)).toMatchObject({ DefaultNamespace: 'healthcare-access' });
  });

  it("serves the Temporal server's Prometheus metrics on the printed address", async () => {
    const response = await fetch(bannerValue(banner, 'Temporal metrics'));
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^# TYPE \w+/m);
  });

  it("serves each API's and each worker's Prometheus metrics on its printed address", async () => {
    const scrape = async (name: string) => (await fetch(bannerValue(banner, `Metrics (${name})`))).text();
    for (const api of ['api-1', 'api-2'])
      expect(await scrape(api)).toContain('# TYPE http_requests_total counter');
    for (const worker of ['worker-1', 'worker-2']) expect(await scrape(worker)).toMatch(/^temporal_\w+/m);
  });

  it('restarts the Temporal server on SIGUSR2 while both APIs keep serving', async () => {
    const apiKey = bannerValue(banner, 'Dev API key');
    launcher.child.kill('SIGUSR2');
    await launcher.waitForOutput(/the Temporal server restarted/, 120_000);

    for (const name of ['api-1', 'api-2']) {
      const components = await eventually(async () => {
        const response = await fetch(`${bannerValue(banner, `API (${name})`)}/status`, {
          headers: { Authorization: `Bearer ${apiKey}` },
        });
        const { data } = await readJson(response);
        return data.components.temporal.status === 'ok' ? data.components : undefined;
      }, 60_000);
      expect(components).toMatchObject({ database: { status: 'ok' }, temporal: { status: 'ok' } });
    }
    expect(launcher.child.exitCode).toBeNull();
  }, 180_000);

  it('stops every process and server it started on Ctrl-C', async () => {
    const processesLine = /^ {2}Processes:\s+(.*)$/m.exec(banner)![1]!;
    const pids = [...processesLine.matchAll(/ (\d+)(?:,|$)/g)].map((match) => Number(match[1]));
    const ports = [
      new URL(bannerValue(banner, 'PostgreSQL')).port,
      bannerValue(banner, 'Temporal').split(':')[1],
      new URL(bannerValue(banner, 'Temporal Web')).port,
    ].map(Number);

    expect(await launcher.stop('SIGINT', 60_000)).toBe(0);
    expect(pids).toHaveLength(5);
    expect(pids.filter(isProcessAlive)).toEqual([]);
    expect(await Promise.all(ports.map(isPortFree))).toEqual([true, true, true]);
  });
});
