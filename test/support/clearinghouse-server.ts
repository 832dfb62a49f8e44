import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface ClearinghouseRequest {
  /** The request's path and query, as the server saw it. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ClearinghouseAnswer = { status: number; body?: string; headers?: Record<string, string> };

export type ClearinghouseReply = ClearinghouseAnswer | 'hang';

/**
 * A real clearinghouse endpoint on loopback: it records each POST and answers with what `answer`
 * returns for the request, or with the next scripted reply when one is queued. A `'hang'` reply leaves
 * the request unanswered until `release` (or `stop`).
 */
export class ClearinghouseServer {
  readonly requests: ClearinghouseRequest[] = [];
  readonly script: ClearinghouseReply[] = [];
  private readonly server: Server;
  private readonly hanging = new Set<ServerResponse>();

  constructor(private readonly answer: (request: ClearinghouseRequest) => ClearinghouseReply) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const request = {
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(request);
        const reply = this.script.shift() ?? this.answer(request);
        if (reply === 'hang') {
          this.hanging.add(res);
          res.on('close', () => this.hanging.delete(res));
          return;
        }
        res.writeHead(reply.status, reply.headers).end(reply.body);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/eligibility`;
  }

  /** Answers every request left hanging so far, so a test need not wait out its client's time limit. */
  release(answer: ClearinghouseAnswer): void {
    for (const res of this.hanging) res.writeHead(answer.status, answer.headers).end(answer.body);
    this.hanging.clear();
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
