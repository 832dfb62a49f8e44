import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { allowCodecOrigin } from '../common/codec-cors';

/** Temporal payload batches embed documents; the API's own limit on /codec is the same. */
const MAX_BODY_BYTES = 25 * 1024 * 1024;
const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d{1,5})?$/i;

export interface CodecProxyOptions {
  /** The API's base URL, e.g. https://api.example.com. */
  apiUrl: string;
  /** An operator key (operator-keys:create); it never reaches the browser. */
  operatorKey: string;
  /** The Temporal Web origins whose browser pages may call the proxy. */
  corsOrigins: string[];
  port: number;
}

export interface RunningCodecProxy {
  port: number;
  /** The URL to give Temporal Web: it ends in a path secret made for this run. */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A codec endpoint on 127.0.0.1 for an operator's own Temporal Web: it adds the operator key and
 * forwards /decode and /encode to the API's /codec. Temporal Web outside local mode has no way to
 * hold our key, so the operator runs this beside the browser instead of the API trusting loopback.
 * It guards its own loopback the way the API does: a loopback Host (no DNS rebinding), JSON only
 * (so a page of another origin needs a CORS preflight), and CORS for the configured origins only.
 * Every request must also name a random path secret made for this run: another process or user on
 * the machine reaches 127.0.0.1 too, but only the operator, who set the endpoint, knows the path.
 */
export async function startCodecProxy(options: CodecProxyOptions): Promise<RunningCodecProxy> {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const pathSecret = randomBytes(24).toString('base64url');
  const server = createServer((req, res) => {
    handle(req, res, { ...options, apiUrl }, pathSecret).catch(() =>
      answer(res, 502, 'The API could not be reached.'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { port, endpoint: `http://127.0.0.1:${port}/${pathSecret}`, close: () => closeServer(server) };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: CodecProxyOptions,
  pathSecret: string,
): Promise<void> {
  const [, givenSecret = '', operation, ...rest] = new URL(req.url ?? '/', 'http://localhost').pathname.split(
    '/',
  );
  if (!sameSecret(givenSecret, pathSecret) || rest.length > 0) {
    return answer(res, 404, 'Use the endpoint the codec proxy printed when it started.');
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !options.corsOrigins.includes(origin)) {
    return answer(res, 403, 'This origin may not use the codec proxy.');
  }
  if (!LOOPBACK_HOST.test(req.headers.host ?? '')) return answer(res, 403, 'Use the proxy as localhost.');
  if (origin) allowCodecOrigin(res, origin);
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end();
    return;
  }
  if (req.method !== 'POST' || (operation !== 'decode' && operation !== 'encode')) {
    return answer(res, 404, 'The codec proxy serves POST …/decode and POST …/encode.');
  }
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return answer(res, 415, 'Send the payloads as application/json.');
  }
  const body = await readBody(req);
  if (!body) return answer(res, 413, 'The payloads are larger than the codec accepts.');

  const namespace = req.headers['x-namespace'];
  const upstream = await fetch(`${options.apiUrl}/codec/${operation}`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${options.operatorKey}`,
      'Content-Type': 'application/json',
      ...(typeof namespace === 'string' ? { 'X-Namespace': namespace } : {}),
    },
    body,
  });
  res.writeHead(upstream.status, {
    'Content-Type': upstream.headers.get('content-type') ?? 'application/json',
  });
  res.end(Buffer.from(await upstream.arrayBuffer()));
}

function sameSecret(given: string, expected: string): boolean {
  const givenBytes = Buffer.from(given);
  const expectedBytes = Buffer.from(expected);
  return givenBytes.length === expectedBytes.length && timingSafeEqual(givenBytes, expectedBytes);
}

/** The body, or undefined once it passes the limit (the rest is not read). */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message }));
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });
}
