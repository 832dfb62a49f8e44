import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Logger } from 'pino';

import type { CaseCount } from '../../infrastructure/cases/case-summaries.repository';
import type { MetricsSettings } from '../../infrastructure/config/config';
import type { RequestObserver } from '../common/http-edge';
import { ApiMetrics } from './api-metrics';

/**
 * The Prometheus endpoint on its own port: a plain node:http server outside the Nest app, so a
 * scrape needs no API key, never counts as an API request, and answers even while the API is busy.
 */
export async function serveMetrics(
  render: () => Promise<{ contentType: string; body: string }>,
  settings: Required<MetricsSettings>,
  logger: Logger,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Metrics are served at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end();
      return;
    }
    render().then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(body),
      (error: Error) => {
        logger.warn({ error: error.name }, 'could not render the metrics');
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('Metrics are unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  logger.info({ port: (server.address() as AddressInfo).port }, 'metrics listening');
  return server;
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/** What the API process needs of its metrics: a request observer and a way to stop serving. */
export interface ApiMetricsEndpoint {
  observeRequest?: RequestObserver;
  close(): Promise<void>;
}

/** The API process's metrics on METRICS_PORT; without it, nothing is measured or served. */
export async function startApiMetrics(
  settings: MetricsSettings,
  countCases: () => Promise<CaseCount[]>,
  logger: Logger,
): Promise<ApiMetricsEndpoint> {
  if (settings.port === undefined) return { close: async () => undefined };
  const metrics = new ApiMetrics(countCases, logger);
  const server = await serveMetrics(
    () => metrics.render(),
    { host: settings.host, port: settings.port },
    logger,
  );
  return { observeRequest: metrics.observeRequest, close: () => closeServer(server) };
}
