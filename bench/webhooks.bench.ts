import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import pino from 'pino';

import { createActivities } from '../activities';
import { newId } from '../domain/ids';
import { AccountsRepository } from '../infrastructure/accounts/accounts.repository';
import { loadConfig } from '../infrastructure/config/config';
import { SecretBox } from '../infrastructure/crypto/aes-gcm';
import { Database, openDatabase } from '../infrastructure/storage/database';
import { migrate } from '../infrastructure/storage/migrations';
import { connectClient, connectWorkerConnection } from '../infrastructure/temporal/temporal-connection';
import { WebhookEndpointsRepository } from '../infrastructure/webhooks/webhook-endpoints.repository';
import { createWorker } from '../src/worker/worker';
import { benchTemporal, ms, percentile, randomKeys, withConcurrency } from './support';

/** What Temporal spent on the deliveries of some events: delivery workflows, their history events and state transitions. */
async function temporalCost(client: Client, db: Database, eventIds: string[]) {
  const deliveries = await db.query<{ id: string }>(
    'SELECT id FROM webhook_deliveries WHERE event_id = ANY ($1)',
    [eventIds],
  );
  let workflows = 0;
  let historyEvents = 0;
  let stateTransitions = 0;
  for (const { id } of deliveries) {
    try {
      const description = await client.workflow.getHandle(id).describe();
      const raw = await client.workflowService.describeWorkflowExecution({
        namespace: client.options.namespace,
        execution: { workflowId: id },
      });
      workflows += 1;
      historyEvents += description.historyLength;
      stateTransitions += Number(raw.workflowExecutionInfo?.stateTransitionCount ?? 0);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  const per = (value: number) => (value / deliveries.length).toFixed(1);
  return `${workflows}/${deliveries.length} deliveries ran a workflow; per delivery: ${per(historyEvents)} history events, ${per(stateTransitions)} state transitions`;
}

/**
 * Event-to-receipt latency, delivery throughput and Temporal cost through the real path (the
 * publishEvent activity, first attempts, signed POSTs to a loopback receiver, Temporal for retries): idle, a burst to one endpoint, 20
 * endpoints, and a receiver that fails each first attempt.
 */
async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const temporal = await benchTemporal();
  const config = loadConfig('api', {
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: temporal.server.address,
    PAYLOAD_ENCRYPTION_KEYS: randomKeys(),
    PATIENT_REF_KEY: randomKeys().split(':')[1]!,
    TEMPORAL_TASK_QUEUE: 'bench-webhooks',
    WEBHOOK_ALLOWED_TARGETS: '127.0.0.0/8',
  });
  const db = await openDatabase({ pgliteDir: 'memory://' });
  await migrate(db);
  const client = await connectClient(config.temporal, config.encryption!);
  const connection = await connectWorkerConnection(config.temporal);
  const worker = await createWorker({
    config,
    connection,
    db,
    temporalClient: client,
    logger: pino({ level: 'silent' }),
  });
  const running = worker.run();

  const receipts = new Map<string, number>();
  const refusedOnce = new Set<string>();
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = `${req.headers['x-webhook-id']}|${req.url}`;
      if (req.url?.startsWith('/flaky') && !refusedOnce.has(key)) {
        refusedOnce.add(key);
        res.writeHead(503).end();
        return;
      }
      if (!receipts.has(key)) receipts.set(key, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const secrets = new SecretBox(config.encryption!);
  const endpoints = new WebhookEndpointsRepository(db, secrets);
  // The activity case workflows call, as the worker runs it.
  const { publishEvent } = createActivities({
    config,
    db,
    temporalClient: client,
    taskQueue: config.temporal.taskQueue,
  }).activities;
  const accounts = new AccountsRepository(db);

  const scenario = async (
    title: string,
    options: { endpoints: number; events: number; concurrency: number; path?: string; cost?: boolean },
  ) => {
    const account = await accounts.createAccount(title);
    for (let index = 0; index < options.endpoints; index += 1) {
      const endpoint = await endpoints.create({
        accountId: account.id,
        name: `bench ${index}`,
        url: `${receiverUrl}/${options.path ?? 'ok'}-${account.id}-${index}`,
        events: ['prior_authorization.updated'],
        secret: 'bench-secret-0123456789',
        livemode: false,
      });
      await endpoints.setStatus(endpoint.id, 'active', null);
    }
    const published = new Map<string, number>();
    const mine = () => [...receipts.entries()].filter(([key]) => published.has(key.split('|')[0]!));
    const startedAt = performance.now();
    const events = Array.from({ length: options.events }, () => newId('event'));
    await withConcurrency(events, options.concurrency, async (eventId) => {
      published.set(eventId, performance.now());
      await publishEvent({
        eventId,
        accountId: account.id,
        type: 'prior_authorization.updated',
        data: { id: 'pa_bench', object: 'prior_authorization', status: 'processing' },
        createdAt: new Date().toISOString(),
      });
      // One at a time means idle: the next event waits until this one is received.
      while (options.concurrency === 1 && mine().length < published.size * options.endpoints)
        await new Promise((resolve) => setTimeout(resolve, 5));
    });
    const expected = options.endpoints * options.events;
    const deadline = Date.now() + 300_000;
    while (mine().length < expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const received = mine();
    const latencies = received.map(([key, at]) => at - published.get(key.split('|')[0]!)!);
    const lastReceipt = Math.max(...received.map(([, at]) => at));
    console.log(
      [
        `${title}: ${options.endpoints} endpoint(s) × ${options.events} events → ${received.length}/${expected} received`,
        `  event-to-receipt  p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}`,
        `  throughput        ${(received.length / ((lastReceipt - startedAt) / 1000)).toFixed(1)} deliveries/s`,
        ...(options.cost ? [`  Temporal          ${await temporalCost(client, db, events)}`] : []),
      ].join('\n'),
    );
  };

  console.log(
    'Webhook delivery benchmark (local Temporal dev server, one in-process worker, loopback receiver)',
  );
  await scenario('warm-up', { endpoints: 1, events: 20, concurrency: 10 });
  await scenario('idle', { endpoints: 1, events: 30, concurrency: 1, cost: true });
  await scenario('burst', { endpoints: 1, events: 200, concurrency: 16, cost: true });
  await scenario('fan-out', { endpoints: 20, events: 20, concurrency: 16 });
  await scenario('first attempt answered 503', {
    endpoints: 1,
    events: 20,
    concurrency: 16,
    path: 'flaky',
    cost: true,
  });

  worker.shutdown();
  await running;
  await connection.close();
  await client.connection.close();
  receiver.close();
  await db.close();
  await temporal.cleanup();
}

main().catch((error: Error) => {
  console.error(error.stack ?? error.message);
  process.exit(1);
});
