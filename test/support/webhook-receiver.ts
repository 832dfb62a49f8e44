import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import jwt from 'jsonwebtoken';

import { WebhookEndpointSecret, verifyWebhook } from '../../clients/typescript/src';
import { handleNotification, Notification, ThinNotification } from '../../examples/webhook-receiver';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  verified: boolean;
  receivedAt: number;
}

/**
 * A real HTTP receiver on loopback running the documented receiver code on every request. It
 * records everything and can be scripted to answer otherwise first: fail, hang, redirect, be gone.
 */
export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly notifications: Array<Notification | ThinNotification> = [];
  readonly rejections: string[] = [];
  /** Answers for the next requests, consumed in order; after them the documented receiver answers. */
  readonly script: Array<number | 'hang'> = [];
  /**
   * The endpoints this receiver serves, added once created, as a real receiver is configured with
   * its endpoint's id; a notification for any other endpoint is refused.
   */
  readonly endpointIds = new Set<string>();
  /**
   * The integrator's own handling of each notification, awaited before the receiver answers (reading
   * the case back, say); nothing by default.
   */
  onNotification: (notification: Notification | ThinNotification) => Promise<void> = async () => undefined;
  private readonly seen = new Set<string>();
  private readonly server: Server;

  constructor(private readonly secret: string) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const endpoint = this.endpointFor(req.headers);
        this.requests.push({
          headers: req.headers,
          rawBody,
          verified: verifyWebhook(endpoint, req.headers, rawBody).ok,
          receivedAt: Date.now(),
        });
        const scripted = this.script.shift();
        if (scripted === 'hang') return;
        if (scripted !== undefined) {
          const redirect =
            scripted >= 300 && scripted < 400 ? { Location: 'http://127.0.0.1:9/' } : undefined;
          res.writeHead(scripted, redirect).end();
          return;
        }
        void handleNotification(rawBody, req.headers, {
          endpoint,
          seen: this.seen,
          onNotification: async (notification) => {
            this.notifications.push(notification);
            await this.onNotification(notification);
          },
          onRejected: (reason) => this.rejections.push(reason),
        }).then((status) => res.writeHead(status).end());
      });
    });
  }

  /** The served endpoint the token names, so the documented receiver checks it against that one. */
  private endpointFor(headers: IncomingHttpHeaders): WebhookEndpointSecret {
    const token = headers['x-webhook-secret'];
    const audience =
      typeof token === 'string' ? (jwt.decode(token) as jwt.JwtPayload | null)?.aud : undefined;
    const id = typeof audience === 'string' && this.endpointIds.has(audience) ? audience : '';
    return { endpointId: id, secret: this.secret };
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
