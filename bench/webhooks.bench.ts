import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';

import { DefaultLogger, Runtime } from '@temporalio/worker';
import pino from 'pino';

import { AccountsRepository } from '../src/auth/accounts.repository';
import { newId } from '../src/common/ids';
import { loadConfig } from '../src/config/config';
import { SecretBox } from '../src/crypto/aes-gcm';
import { openDatabase } from '../src/storage/database';
import { migrate } from '../src/storage/migrations';
import { connectClient, connectWorkerConnection } from '../src/temporal/temporal-connection';
import { WebhookDeliveriesRepository } from '../src/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../src/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../src/webhooks/webhook-publisher';
import { createWorker } from '../src/worker/worker';
import { benchTemporal, ms, percentile, randomKeys, withConcurrency } from './support';

/**
 * Event-to-receipt latency and delivery throughput to a local receiver, with 1 and with 20
 * endpoints, through the real path: fan-out, one delivery workflow per delivery, signed POSTs.
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
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      receipts.set(`${req.headers['x-webhook-id']}|${req.url}`, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const secrets = new SecretBox(config.encryption!);
  const endpoints = new WebhookEndpointsRepository(db, secrets);
  const publisher = new WebhookPublisher(new WebhookDeliveriesRepository(db, secrets), client, {
    taskQueue: config.temporal.taskQueue,
    webhooks: config.webhooks,
  });
  const accounts = new AccountsRepository(db);

  const scenario = async (endpointCount: number, eventCount: number) => {
    const account = await accounts.createAccount(`bench ${endpointCount}`);
    for (let index = 0; index < endpointCount; index += 1) {
      const endpoint = await endpoints.create({
        accountId: account.id,
        name: `bench ${index}`,
        url: `${receiverUrl}/e${endpointCount}-${index}`,
        events: ['prior_authorization.updated'],
        secret: 'bench-secret-0123456789',
      });
      await endpoints.setStatus(endpoint.id, 'active', null);
    }
    const published = new Map<string, number>();
    const startedAt = performance.now();
    const events = Array.from({ length: eventCount }, () => newId('event'));
    await withConcurrency(events, 10, async (eventId) => {
      published.set(eventId, performance.now());
      await publisher.publish({
        eventId,
        accountId: account.id,
        type: 'prior_authorization.updated',
        data: { id: 'pa_bench', object: 'prior_authorization', status: 'processing' },
        createdAt: new Date().toISOString(),
      });
    });
    const expected = endpointCount * eventCount;
    const deadline = Date.now() + 300_000;
    const mine = () => [...receipts.entries()].filter(([key]) => published.has(key.split('|')[0]!));
    while (mine().length < expected && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const received = mine();
    const latencies = received.map(([key, at]) => at - published.get(key.split('|')[0]!)!);
    const lastReceipt = Math.max(...received.map(([, at]) => at));
    console.log(
      [
        `${endpointCount} endpoint(s), ${eventCount} events → ${received.length}/${expected} deliveries`,
        `  event-to-receipt latency  p50 ${ms(percentile(latencies, 50))}   p99 ${ms(percentile(latencies, 99))}`,
        `  throughput                ${(received.length / ((lastReceipt - startedAt) / 1000)).toFixed(1)} deliveries/s`,
      ].join('\n'),
    );
  };

  console.log(
    'Webhook delivery benchmark (local Temporal dev server, one in-process worker, loopback receiver)',
  );
  await scenario(1, 20); // warm-up: bundle, caches, connections
  receipts.clear();
  await scenario(1, 200);
  await scenario(20, 20);

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
