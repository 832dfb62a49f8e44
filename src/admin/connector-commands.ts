import { readFileSync } from 'node:fs';

import { BadRequestException } from '@nestjs/common';

import { CONNECTOR_KINDS, ConnectorKind, isConnectorKind } from '../../domain/connectors/connector-kinds';
import { AccountsRepository } from '../../infrastructure/accounts/accounts.repository';
import type { AuditAction } from '../../infrastructure/audit/audit-event';
import type { AppConfig } from '../../infrastructure/config/config';
import { ConnectorSettingsRepository } from '../../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { localEncryption } from '../bootstrap';
import { ApiError } from '../common/errors';
import { wholeNumberOrText } from '../common/validation';
import { validatedConnectorSettings } from '../connectors/connectors.dto';
import { ConnectorsService } from '../connectors/connectors.service';
import type { ConnectorFlags } from './connector-usage';
import { CommandRefusal, exitTwoOnRefusal, recordOperatorAction, requiredFlag } from './operator-commands';

/** Where each field of the API's body comes from on the command line. */
const FLAG_OF_FIELD: Record<string, string> = {
  url: '--url',
  format: '--format',
  auth: '--auth',
  'auth.type': '--auth',
  'auth.username': '--username',
  'auth.name': '--header-name',
  'auth.password': 'CONNECTOR_SECRET',
  'auth.token': 'CONNECTOR_SECRET',
  'auth.value': 'CONNECTOR_SECRET',
  submitter_id: '--submitter-id',
  receiver_id: '--receiver-id',
  usage: '--usage',
  client_id: '--client-id',
  host: '--host',
  port: '--port',
  security: '--security',
  username: '--username',
  password: 'CONNECTOR_SECRET',
  from: '--from',
  ca_certificate: '--ca-file',
  timeout_ms: '--timeout-ms',
};

/**
 * Runs a connectors:* command through the same validation, SSRF check and storage as the API, and
 * records each change in the account's audit trail with the operator as the actor. Mistakes exit 2
 * with a sentence per flag.
 */
export async function runConnectorCommand(
  command: string,
  flags: ConnectorFlags,
  context: { config: AppConfig; db: Database; print: (value: unknown) => void },
): Promise<number> {
  return exitTwoOnRefusal(() => run(command, flags, context));
}

async function run(
  command: string,
  flags: ConnectorFlags,
  { config, db, print }: { config: AppConfig; db: Database; print: (value: unknown) => void },
): Promise<number> {
  const accountId = requiredFlag(flags.account, '--account');
  if (!(await new AccountsRepository(db).findAccount(accountId))) {
    throw new CommandRefusal(`No account ${accountId}`);
  }
  const encryption = config.databaseUrl ? config.encryption : localEncryption(config);
  if (!encryption)
    throw new CommandRefusal('PAYLOAD_ENCRYPTION_KEYS is required to manage connector secrets');
  const connectors = new ConnectorsService(
    new ConnectorSettingsRepository(db, new SecretBox(encryption), config.publicApiUrl),
    new WebhookTargetPolicy(config.webhooks.allowedTargets),
  );
  /** Audits the operator's change to the account's connector under `action`, and prints the connector. */
  const recordAndPrint = async (action: AuditAction, connector: { id: string }): Promise<number> => {
    await recordOperatorAction(db, accountId, action, { object: 'connector', id: connector.id });
    print(connector);
    return 0;
  };
  switch (command) {
    case 'connectors:list':
      print(await connectors.list(accountId));
      return 0;
    case 'connectors:set': {
      const kind = knownKind(flags.kind);
      const connector = await operatorMistakesAsUsage(async () =>
        connectors.configure(
          accountId,
          kind,
          await validatedConnectorSettings(kind, await bodyOf(kind, flags)),
        ),
      );
      return recordAndPrint('connector.configured', connector);
    }
    case 'connectors:rotate-signing-key': {
      const { connector } = await operatorMistakesAsUsage(() => connectors.rotateSigningKey(accountId));
      return recordAndPrint('connector.signing_key_rotated', connector);
    }
    case 'connectors:delete': {
      const removed = await operatorMistakesAsUsage(() =>
        connectors.remove(accountId, knownKind(flags.kind)),
      );
      return recordAndPrint('connector.deleted', removed);
    }
    default:
      throw new CommandRefusal(`Unknown command "${command}"`);
  }
}

async function bodyOf(kind: ConnectorKind, flags: ConnectorFlags): Promise<Record<string, unknown>> {
  if (kind === 'mail') {
    const password = flags.username === undefined ? undefined : await readSecret();
    return withoutAbsent({
      host: flags.host,
      port: wholeNumberOrText(flags.port),
      security: flags.security,
      username: flags.username,
      password,
      from: flags.from,
      ca_certificate: flags['ca-file'] === undefined ? undefined : readCaFile(flags['ca-file']),
      timeout_ms: wholeNumberOrText(flags['timeout-ms']),
      // Refused by the API's rule, which names it: a mail server is not given by a URL.
      url: flags.url,
    });
  }
  if (kind === 'coverage_requirements') {
    return withoutAbsent({
      url: flags.url,
      client_id: flags['client-id'],
      timeout_ms: wholeNumberOrText(flags['timeout-ms']),
      // Refused by the API's rule, which names it: the connector authenticates with its own key.
      auth: flags.auth,
    });
  }
  const type = requiredFlag(flags.auth, '--auth');
  const secret = type === 'none' ? undefined : await readSecret();
  const secretField = { basic: 'password', bearer: 'token', header: 'value' }[type];
  const auth = {
    type,
    username: flags.username,
    name: flags['header-name'],
    ...(secretField && secret !== undefined && { [secretField]: secret }),
  };
  return withoutAbsent({
    url: flags.url,
    auth: withoutAbsent(auth),
    timeout_ms: wholeNumberOrText(flags['timeout-ms']),
    format: flags.format,
    submitter_id: flags['submitter-id'],
    receiver_id: flags['receiver-id'],
    usage: flags.usage,
    client_id: flags['client-id'],
  });
}

function readCaFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandRefusal(`--ca-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code})`);
  }
}

/** The secret from CONNECTOR_SECRET, else from stdin when piped: never from a flag, which shell history keeps. */
async function readSecret(): Promise<string | undefined> {
  const fromEnvironment = process.env.CONNECTOR_SECRET;
  if (fromEnvironment) return fromEnvironment;
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const piped = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  return piped || undefined;
}

/** The API's 400s and 404s, in the CLI's words: the flag each one is about. */
async function operatorMistakesAsUsage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BadRequestException) {
      const messages = (error.getResponse() as { message: string[] }).message;
      throw new CommandRefusal(messages.map(inFlagTerms).join('\n'));
    }
    if (error instanceof ApiError && error.details.length > 0) {
      throw new CommandRefusal(
        error.details.map(({ field, issue }) => inFlagTerms(`${field}: ${issue}`)).join('\n'),
      );
    }
    if (error instanceof ApiError && error.code === 'not_found') throw new CommandRefusal(error.message);
    throw error;
  }
}

function inFlagTerms(message: string): string {
  const separator = message.indexOf(': ');
  const field = message.slice(0, separator);
  return `${FLAG_OF_FIELD[field] ?? field}: ${message.slice(separator + 2)}`;
}

function knownKind(kind: string | undefined): ConnectorKind {
  const given = requiredFlag(kind, '--kind');
  if (!isConnectorKind(given)) throw new CommandRefusal(`--kind takes ${CONNECTOR_KINDS.join(', ')}`);
  return given;
}

function withoutAbsent(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
