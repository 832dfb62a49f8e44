import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

import { SMTPServer } from 'smtp-server';

/** A message as the server received it, and how the session that brought it was held. */
export interface ReceivedMail {
  from: string;
  to: string[];
  /** Whether the session was encrypted (TLS from the start, or upgraded by STARTTLS) when it came. */
  secure: boolean;
  /** The user the client authenticated as, and how (PLAIN or LOGIN); undefined without AUTH. */
  user?: string;
  authMethod?: string;
  /** The whole message, headers and body, as sent. */
  raw: string;
  subject: string;
  messageId: string;
  /** The text body, its transfer encoding undone. */
  text: string;
}

/**
 * What the server does with the next message: take it, refuse it for good (550), refuse it for now
 * (451), drop the connection before answering the recipient, or never answer the recipient.
 */
export type SmtpBehaviour = 'accept' | 'reject' | 'defer' | 'drop' | 'hang';

export interface LoopbackSmtpOptions {
  security: 'starttls' | 'tls';
  /** Without credentials the server takes mail unauthenticated. */
  credentials?: { username: string; password: string };
  /** False: a server that does not offer STARTTLS, as a stripped or misconfigured one would not. */
  offerStartTls?: boolean;
  /** The names its certificate is for (openssl's subjectAltName); by default 127.0.0.1 and localhost. */
  certificateNames?: string;
}

/**
 * A self-signed certificate, by default for 127.0.0.1 and localhost, made for one test run: the
 * sender must be told to trust it. `names` is openssl's subjectAltName.
 */
export function selfSignedCertificate(names = 'IP:127.0.0.1,DNS:localhost'): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'loopback-smtp-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        `subjectAltName=${names}`,
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    return {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A real SMTP server on 127.0.0.1 with TLS (from the start, or by STARTTLS, which it then requires
 * before AUTH or mail) and AUTH PLAIN/LOGIN. It keeps what it receives for assertions and can be told
 * to refuse mail or drop connections.
 */
export class LoopbackSmtpServer {
  readonly received: ReceivedMail[] = [];
  /** Every user name a client tried to authenticate as, accepted or not, and whether in clear. */
  readonly authAttempts: Array<{ username: string; secure: boolean }> = [];
  behaviour: SmtpBehaviour = 'accept';
  /** The certificate a sender must trust (PEM). */
  readonly certificate: string;
  private readonly server: SMTPServer;
  private readonly authMethods = new Map<string, string>();

  constructor(private readonly options: LoopbackSmtpOptions) {
    const { key, cert } = selfSignedCertificate(options.certificateNames);
    this.certificate = cert;
    const credentials = options.credentials;
    this.server = new SMTPServer({
      key,
      cert,
      secure: options.security === 'tls',
      disabledCommands: options.offerStartTls === false ? ['STARTTLS'] : [],
      authMethods: ['PLAIN', 'LOGIN'],
      authOptional: credentials === undefined,
      // A server without STARTTLS takes AUTH in clear, so a client that would send its password
      // unencrypted is seen doing it.
      allowInsecureAuth: options.offerStartTls === false,
      logger: false,
      disableReverseLookup: true,
      closeTimeout: 100,
      onAuth: (auth, session, callback) => {
        this.authAttempts.push({ username: auth.username ?? '', secure: session.secure });
        if (auth.username === credentials?.username && auth.password === credentials?.password) {
          this.authMethods.set(session.id, auth.method);
          callback(null, { user: auth.username });
        } else {
          callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        }
      },
      onMailFrom: (_address, session, callback) => {
        // A STARTTLS server that took mail in clear would let the signing link travel unencrypted.
        if (!session.secure)
          return callback(Object.assign(new Error('Must issue STARTTLS first'), { responseCode: 530 }));
        callback();
      },
      onRcptTo: (_address, session, callback) => {
        if (this.behaviour === 'drop') {
          // The client sees the connection close before any answer to RCPT TO.
          return this.connectionOf(session.id)?._socket.destroy();
        }
        if (this.behaviour === 'hang') return;
        if (this.behaviour === 'reject') {
          return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        }
        if (this.behaviour === 'defer') {
          return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            secure: session.secure,
            user: session.user as string | undefined,
            authMethod: this.authMethods.get(session.id),
            raw,
            ...readMessage(raw),
          });
          callback();
        });
      },
    });
  }

  /** Listens on a free loopback port; answers the port. */
  async start(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    return (this.server.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  get security(): 'starttls' | 'tls' {
    return this.options.security;
  }

  private connectionOf(sessionId: string): { _socket: { destroy(): void } } | undefined {
    const connections = (this.server as unknown as { connections: Set<SessionConnection> }).connections;
    return [...connections].find((connection) => connection.session.id === sessionId);
  }
}

/** smtp-server's connection object, as far as dropping one needs it. */
interface SessionConnection {
  session: { id: string };
  _socket: { destroy(): void };
}

/** Subject, Message-ID and text body of a single-part text message, as nodemailer writes one. */
function readMessage(raw: string): { subject: string; messageId: string; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headerBlock = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(headerBlock)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? Buffer.from(
          body
            .replace(/=\r\n/g, '')
            .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8')
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : body;
  return {
    subject: decodeWords(header('Subject')),
    messageId: header('Message-ID'),
    text: text.replace(/\r\n$/, ''),
  };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=` or `=?UTF-8?B?…?=`), which nodemailer uses for non-ASCII subjects. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_match, kind: string, data: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(data, 'base64').toString('utf8')
      : Buffer.from(
          data
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}
