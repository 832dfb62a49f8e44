import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import {
  type NppesAnswer,
  type NppesQuery,
  searchRecords,
} from '../../infrastructure/providers/nppes-answer';
import {
  sandboxRegistryIsDownFor,
  sandboxRegistryRecords,
} from '../../infrastructure/providers/sandbox-registry';

/** A scripted answer in place of the fixture's: any status and body, as NPPES or a proxy might send. */
export interface RegistryReply {
  status: number;
  body: string;
}

/**
 * A real NPPES NPI Registry API (version 2.1) on loopback, answering from the sandbox fixture in
 * NPPES's own shape and playing the sandbox's outages (an NPI or last name that is "down" answers
 * 503). Its switches play what the live registry may do: be down (503, or the connection reset),
 * answer slower than the time limit, refuse a query with an `Errors` answer, or send any reply.
 */
export class LoopbackNpiRegistry {
  /** The path and query of each request, in order: a cache test counts them. */
  readonly requests: string[] = [];
  /** Down: every request answers 503, or has its connection reset. */
  down: false | 'status' | 'reset' = false;
  /** Every answer waits this long first. */
  delayMs = 0;
  /** Answers every request with this instead of the fixture. */
  reply: RegistryReply | undefined;
  private readonly server: Server;

  constructor() {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      const answer = () => {
        if (this.down === 'reset') return req.socket.destroy();
        const { status, body } =
          this.down === 'status' ? { status: 503, body: 'Service Unavailable' } : this.answer(req.url ?? '');
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
      };
      if (this.delayMs > 0) setTimeout(answer, this.delayMs);
      else answer();
    });
  }

  get requestsServed(): number {
    return this.requests.length;
  }

  /** The registry's documented refusal of a query: HTTP 200 with an `Errors` array. */
  refuseQueries(field = 'last_name'): void {
    this.reply = {
      status: 200,
      body: JSON.stringify({
        Errors: [{ description: 'Field last_name requires at least two characters', field, number: '07' }],
      }),
    };
  }

  /** Back to answering from the fixture at once. */
  recover(): void {
    this.down = false;
    this.delayMs = 0;
    this.reply = undefined;
  }

  /** Starts on a free port and answers with the URL the service's settings take (no trailing slash). */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(url: string): RegistryReply {
    if (this.reply) return this.reply;
    const query = queryOf(new URL(url, 'http://registry').searchParams);
    if (!query) {
      return json({
        Errors: [{ description: 'No valid search criteria were given', field: 'generic', number: '04' }],
      });
    }
    if (sandboxRegistryIsDownFor(query)) return { status: 503, body: 'Service Unavailable' };
    const results = searchRecords(sandboxRegistryRecords(), query);
    return json({ result_count: results.length, results });
  }
}

function queryOf(parameters: URLSearchParams): NppesQuery | undefined {
  if (parameters.get('version') !== '2.1') return undefined;
  const number = parameters.get('number');
  if (number) return { number };
  const lastName = parameters.get('last_name');
  const state = parameters.get('state');
  if (!lastName || !state) return undefined;
  const limit = Number(parameters.get('limit') ?? 10);
  return { last_name: lastName, state, enumeration_type: 'NPI-1', limit: Math.min(Math.max(limit, 1), 200) };
}

function json(answer: NppesAnswer): RegistryReply {
  return { status: 200, body: JSON.stringify(answer) };
}
