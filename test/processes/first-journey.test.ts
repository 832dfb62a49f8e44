import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { projectRoot } from '../../infrastructure/project-root';
import { freePort } from '../../infrastructure/temporal/dev-server';
import { localModeEnv, startProcess } from '../support/processes';
import { eventually } from '../support/test-app';

const DEV_API_KEY = `hak_test_first_journey_${randomUUID().replace(/-/g, '')}`;

/** The shell block under the README's "Your first case", as a newcomer copies it. */
function firstJourney(): string {
  const readme = readFileSync(path.join(projectRoot(), 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Your first case'));
  const start = section.indexOf('```bash\n') + '```bash\n'.length;
  return section.slice(start, section.indexOf('```\n', start));
}

/**
 * The journey with what a reader fills in: the address and key `npm start` printed (here, a local mode
 * on free ports) and a free port for the receiver. Every other line runs as written.
 */
function asTyped(journey: string, api: string, receiverPort: number): string {
  const lines = journey.split('\n');
  expect(lines[0]).toMatch(/^export API=http:\/\/localhost:3000 KEY=hak_test_… /);
  expect(lines[1]).toMatch(/^export RECEIVER_PORT=4000 /);
  lines[0] = `export API=${api} KEY=${DEV_API_KEY}`;
  lines[1] = lines[1]!.replace('RECEIVER_PORT=4000', `RECEIVER_PORT=${receiverPort}`);
  return lines.join('\n');
}

describe("the README's first case", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-first-journey-'));
  let service: ReturnType<typeof startProcess>;
  let api: string;
  let shell: ChildProcess | undefined;

  beforeAll(async () => {
    const [port, temporal, ui] = [await freePort(), await freePort(), await freePort()];
    service = startProcess(
      'main.local.js',
      localModeEnv({ dataDir, ports: { api: port, temporal, ui }, devApiKey: DEV_API_KEY }),
    );
    await service.waitForOutput(/Dev API key:/);
    api = `http://localhost:${port}`;
  });

  afterAll(async () => {
    // The receiver the journey starts in the background lives in the shell's process group.
    if (shell?.pid) {
      try {
        process.kill(-shell.pid, 'SIGTERM');
      } catch {
        // The group has ended already.
      }
    }
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('receives a verified notification of the benefit verification, and reads the case back completed', async () => {
    const receiverPort = await freePort();
    let output = '';
    shell = spawn('bash', ['-e', '-c', asTyped(firstJourney(), api, receiverPort)], {
      cwd: projectRoot(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    shell.stdout!.on('data', (chunk) => (output += chunk.toString()));
    shell.stderr!.on('data', (chunk) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => shell!.once('exit', resolve));

    expect({ exitCode, output }).toMatchObject({ exitCode: 0 });
    // The receiver prints in the background, before or after the journey's own last line, and a
    // process's last output can arrive after its exit.
    const notified = await eventually(async () => {
      const notification = /verified: benefit_verification\.updated (bv_\S+) completed/.exec(output);
      return notification && output.split('\n').includes('completed') ? notification : undefined;
    });
    expect(output).toContain(`Receiving notifications for wh_`);
    expect(notified[1]).toMatch(/^bv_/);
    expect(output).not.toContain('refused:');
  });
});
