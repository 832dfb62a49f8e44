import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { Client, Connection } from '@temporalio/client';

import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { localEncryption } from '../src/bootstrap';
import { evaluateClinicalEligibility } from '../src/clinical/criteria-engine';
import { loadConfig } from '../src/config/config';
import { projectRoot } from '../src/config/project-root';
import { freePort } from '../src/temporal/dev-server';
import { dataConverter } from '../src/temporal/temporal-connection';
import { ms, percentile, withConcurrency } from './support';

const CASES = 200;
const CONCURRENCY = 20;
const DEV_API_KEY = `hak_bench_${randomUUID().replace(/-/g, '')}`;

const patient = () => ({
  internal_id: `bench-${randomUUID().slice(0, 8)}`,
  first_name: 'Bench',
  last_name: 'Patient',
  gender: 'other',
  date_of_birth: '1970-01-01',
});
const provider = { npi: '1234567893', first_name: 'Bench', last_name: 'Provider' };
const insurance_content = {
  payer: 'Blue Horizon Health',
  member_id: 'BHH000000001',
  plan_type: 'commercial',
};
const bvRequest = () => ({
  patient: patient(),
  drugs: [{ name: 'Ozempic', quantity: 1 }],
  provider,
  insurance_content,
});
const paRequest = () => ({
  patient: patient(),
  diagnoses: [{ code: 'E11.9' }],
  prescription: { drug_name: 'Ozempic', quantity: 1 },
  provider,
  insurance_content,
});

/**
 * Against local mode (`npm start`'s process, on free ports and a throwaway data folder): case
 * creation over HTTP versus raw Temporal starts on the same server, GET latency for running and
 * finished cases, and creation-to-completed time of an auto-completing benefit verification.
 */
async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'haa-bench-local-'));
  const ports = { api: await freePort(), temporal: await freePort(), ui: await freePort() };
  const local = spawn(process.execPath, [path.join(projectRoot(), 'dist', 'src', 'main.local.js')], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(ports.api),
      TEMPORAL_DEV_PORT: String(ports.temporal),
      TEMPORAL_UI_PORT: String(ports.ui),
      DEV_API_KEY,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_SECOND: '100000',
      RATE_LIMIT_BURST: '100000',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stopLocal = () => new Promise((resolve) => (local.once('exit', resolve), local.kill('SIGINT')));
  try {
    await new Promise<void>((resolve, reject) => {
      local.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Dev API key') && resolve());
      local.once('exit', () => reject(new Error('local mode exited during start-up')));
    });
    const api = (route: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${ports.api}${route}`, {
        ...init,
        headers: { Authorization: `Bearer ${DEV_API_KEY}`, 'Content-Type': 'application/json' },
      });
    const create = async (route: string, body: unknown) => {
      const response = await api(route, { method: 'POST', body: JSON.stringify(body) });
      if (response.status !== 201) throw new Error(`${route} answered ${response.status}`);
      return ((await response.json()) as { data: { id: string } }).data.id;
    };
    await create('/benefit-verification', bvRequest()); // warm-up

    console.log(`Case benchmark against local mode (${CASES} cases, ${CONCURRENCY} at a time)`);
    const httpStarted = performance.now();
    const bvIds: string[] = [];
    await withConcurrency(
      Array.from({ length: CASES }, () => bvRequest()),
      CONCURRENCY,
      async (body) => void bvIds.push(await create('/benefit-verification', body)),
    );
    const httpRate = CASES / ((performance.now() - httpStarted) / 1000);

    const connection = await Connection.connect({ address: `127.0.0.1:${ports.temporal}` });
    const client = new Client({
      connection,
      dataConverter: dataConverter(localEncryption(loadConfig('local', { DATA_DIR: dataDir }))),
    });
    const rawStarted = performance.now();
    await withConcurrency(
      Array.from({ length: CASES }, () => bvRequest()),
      CONCURRENCY,
      async (body) =>
        void (await client.workflow.start('benefitVerificationWorkflow', {
          taskQueue: 'bench-raw-starts',
          workflowId: `bench-raw-${randomUUID()}`,
          args: [{ case: { request: body } }],
        })),
    );
    const rawRate = CASES / ((performance.now() - rawStarted) / 1000);
    await connection.close();
    console.log(
      [
        `Creation throughput`,
        `  HTTP POST /benefit-verification   ${httpRate.toFixed(1)} cases/s`,
        `  raw Temporal client start         ${rawRate.toFixed(1)} starts/s`,
        `  ratio HTTP / raw                   ${(httpRate / rawRate).toFixed(2)}`,
      ].join('\n'),
    );

    // Let the 200 verifications above finish, so the timing below measures a case, not a backlog.
    for (const id of bvIds) {
      for (;;) {
        const body = (await (await api(`/benefit-verification/${id}`)).json()) as {
          data: { status: string };
        };
        if (body.data.status === 'completed') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const completionTimes: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const startedAt = performance.now();
      const id = await create('/benefit-verification', bvRequest());
      for (;;) {
        const body = (await (await api(`/benefit-verification/${id}`)).json()) as {
          data: { status: string };
        };
        if (body.data.status === 'completed') break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      completionTimes.push(performance.now() - startedAt);
    }
    console.log(
      `Benefit verification, POST to completed (20 sequential): p50 ${ms(percentile(completionTimes, 50))}   p99 ${ms(percentile(completionTimes, 99))}`,
    );

    const timeGets = async (ids: string[], route: string) => {
      const latencies: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        for (const id of ids) {
          const startedAt = performance.now();
          await api(`${route}/${id}`);
          latencies.push(performance.now() - startedAt);
        }
      }
      return latencies;
    };
    const running: string[] = [];
    for (let index = 0; index < 20; index += 1)
      running.push(await create('/prior-authorization', paRequest()));
    for (const id of running) {
      for (;;) {
        const body = (await (await api(`/prior-authorization/${id}`)).json()) as { data: { status: string } };
        if (body.data.status === 'awaiting_review') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    const runningLatencies = await timeGets(running, '/prior-authorization');
    const finishedLatencies = await timeGets(bvIds.slice(0, 20), '/benefit-verification');
    console.log(
      [
        'GET latency (100 reads each)',
        `  running case (workflow query)     p50 ${ms(percentile(runningLatencies, 50))}   p99 ${ms(percentile(runningLatencies, 99))}`,
        `  finished case (memo, no worker)   p50 ${ms(percentile(finishedLatencies, 50))}   p99 ${ms(percentile(finishedLatencies, 99))}`,
      ].join('\n'),
    );

    await clinicalEligibility(api);
  } finally {
    await stopLocal();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A 5-drug check with 20 evidence items: the engine alone, then POST to the final webhook. */
async function clinicalEligibility(
  api: (route: string, init?: RequestInit) => Promise<Response>,
): Promise<void> {
  const drugs = ['Ozempic', 'Wegovy', 'Humira', 'Nucala', 'Repatha'].map((name) => ({ name, quantity: 1 }));
  const today = new Date().toISOString();
  const notes =
    'BMI 31.2. A1c 8.1 %. On metformin for 8 months. LDL 130 mg/dL on atorvastatin since 2023. Eosinophils 350 cells/uL.';
  const evidence = Array.from({ length: 20 }, (_, index) => ({
    title: `Lab results ${index + 1}`,
    date_created: today,
    content: { labs: [{ name: 'A1c', value: 7 + index / 10, unit: '%' }], note: notes },
  }));
  const diagnoses = [
    { code: 'E11.9' },
    { description: 'hypertension' },
    { code: 'J45.50' },
    { code: 'M06.9' },
  ];

  const durations: number[] = [];
  for (let run = 0; run < 500; run += 1) {
    const startedAt = performance.now();
    evaluateClinicalEligibility({
      patient: { date_of_birth: '1970-01-01', gender: 'other' },
      asOf: today.slice(0, 10),
      drugs,
      diagnoses,
      questionnaires: [],
      visitNotes: [{ content: notes, created_at: today }],
      evidence,
    });
    durations.push(performance.now() - startedAt);
  }

  const received = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { data: { id: string } };
      received.set(body.data.id, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = (await (
    await api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({
        name: 'bench',
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`,
        secret: 'bench-secret-0123456789',
        events: ['clinical_eligibility.updated'],
      }),
    })
  ).json()) as { data: { id: string } };
  await api(`/webhooks/${hook.data.id}`, { method: 'PATCH', body: JSON.stringify({ active: true }) });
  for (;;) {
    const endpoint = (await (await api(`/webhooks/${hook.data.id}`)).json()) as { data: { status: string } };
    if (endpoint.data.status === 'active') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const endToEnd: number[] = [];
  for (let run = 0; run < 20; run += 1) {
    const startedAt = performance.now();
    const response = await api('/clinical-eligibility', {
      method: 'POST',
      body: JSON.stringify({
        patient: patient(),
        drugs,
        diagnoses,
        visit_notes: [{ content: notes, created_at: today }],
        evidence,
      }),
    });
    const id = ((await response.json()) as { clinical_elgibility_id: string }).clinical_elgibility_id;
    while (!received.has(id)) await new Promise((resolve) => setTimeout(resolve, 5));
    endToEnd.push(received.get(id)! - startedAt);
  }
  receiver.close();
  console.log(
    [
      'Clinical eligibility, 5 drugs and 20 evidence items',
      `  criteria evaluation (500 runs)    p50 ${ms(percentile(durations, 50))}   p99 ${ms(percentile(durations, 99))}`,
      `  POST to final webhook (20 runs)   p50 ${ms(percentile(endToEnd, 50))}   p99 ${ms(percentile(endToEnd, 99))}`,
    ].join('\n'),
  );
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
