import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

import { isRole, PLATFORM_ROLE, Role } from '../../domain/accounts/roles';
import { normalizeEventType } from '../../domain/webhooks/event-types';
import {
  Account,
  AccountsRepository,
  AccountStatus,
} from '../../infrastructure/accounts/accounts.repository';
import { KEY_MODES, KeyMode } from '../../infrastructure/accounts/api-key-secret';
import { AppConfig, loadConfig } from '../../infrastructure/config/config';
import { ConsoleUsersRepository } from '../../infrastructure/console/console-users.repository';
import { passwordProblem } from '../../infrastructure/console/passwords';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { WebhookTargetPolicy } from '../../infrastructure/webhooks/target-policy';
import { WebhookEndpointsRepository } from '../../infrastructure/webhooks/webhook-endpoints.repository';
import { devConsoleUserTotpCode, localEncryption, openStorage } from '../bootstrap';
import { createLogger } from '../common/logger';
import { acquireDataFolder, DataFolderBusyError, servedDatabaseUrl } from '../local/data-folder';
import { BACKUP_OPTIONS, BACKUP_USAGE, runBackupCommand } from './backup-commands';
import { CASE_OPTIONS, CASE_USAGE, CaseCommandError } from './case-usage';
import { startCodecProxy } from './codec-proxy';
import { CONNECTOR_OPTIONS, CONNECTOR_USAGE } from './connector-usage';
import { DTR_USAGE } from './dtr-usage';
import { KEY_ROTATION_OPTIONS, KEY_ROTATION_USAGE } from './key-rotation-usage';
import { recordOperatorAction } from './operator-commands';

/*
 * Every run of the CLI is a new process, and most commands touch only accounts and keys: a command
 * loads the modules only it needs (the Temporal client, the DTO validation, the connectors' service,
 * every case type) when it runs, since requiring them all took each run about 0.6 s of CPU.
 */

const PLATFORM_OPERATORS_ACCOUNT = 'Platform operators';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  accounts:create --name NAME                      create an account
  accounts:list                                    list accounts (with their status)
  accounts:suspend ID                              refuse the account's keys and console sessions
                                                   (its running cases still finish)
  accounts:reactivate ID                           accept them again
  users:create --account ID --email EMAIL --name NAME --roles ROLE[,ROLE…]
                                                   create a console user; the password is read from
                                                   stdin when piped, else generated and printed once
  users:create --operator --email EMAIL --name NAME
                                                   create a platform operator console user
  keys:create --account ID --role ROLE [--role …] [--label TEXT] [--mode test|live]
                                                   create an API key (the secret is printed once);
                                                   test (the default) runs on the simulators, live
                                                   reaches payers through the account's connectors
  keys:list --account ID                           list an account's keys (no secrets)
  keys:revoke --key ID                             revoke a key at once
  operator-keys:create [--label TEXT]              create a platform operator key (codec access for
                                                   Temporal Web); the secret is printed once
  webhooks:list --account ID                       list an account's webhook endpoints
  webhooks:create --account ID --name NAME --url URL --secret SECRET --event EVENT [--event …]
          [--mode test|live] [--thin true|false]   create an endpoint (inactive) for one mode's events;
                                                   --thin true sends only id, object, status, livemode
  webhooks:update --webhook ID [--name …] [--url …] [--secret …] [--event …] [--active true|false]
          [--thin true|false]                      change an endpoint; --active true verifies the URL first
  webhooks:delete --webhook ID                     delete an endpoint
${CONNECTOR_USAGE}
${BACKUP_USAGE}
${KEY_ROTATION_USAGE}
${CASE_USAGE}
${DTR_USAGE}
  codec-proxy --api URL [--port N] [--origin URL …]
                                                   serve the codec on 127.0.0.1 (default port 8089)
                                                   for Temporal Web, adding the operator key from
                                                   OPERATOR_API_KEY; --origin is Temporal Web's origin
                                                   (default http://localhost:8080)
  temporal:forget-hosts                            after restoring the cluster's databases (DATABASE_URL
                                                   names the new PostgreSQL server), before Temporal
                                                   starts: empty the membership table, so the server
                                                   does not try to join the backed-up cluster's hosts
                                                   (waits up to 20 s; refuses a cluster still running)
  dev:totp-code                                    print the local development user's current
                                                   sign-in code (reads the data folder, DATA_DIR)

Roles: provider, reviewer, admin. The platform-wide operator role lives only on keys and users of
the "${PLATFORM_OPERATORS_ACCOUNT}" account, which operator-keys:create or users:create --operator
makes on first use.

Uses DATABASE_URL, else the local data folder (DATA_DIR), through the running local service when
there is one; codec-proxy uses neither.`;

/** `--name value` options, each given at most once. */
function textOptions<Name extends string>(...names: Name[]): Record<Name, { type: 'string' }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Record<
    Name,
    { type: 'string' }
  >;
}

/** `--role a --role b` options, read as lists. */
function repeatableTextOptions<Name extends string>(
  ...names: Name[]
): Record<Name, { type: 'string'; multiple: true }> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string', multiple: true }])) as Record<
    Name,
    { type: 'string'; multiple: true }
  >;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'dtr:prepopulate') return (await import('./dtr-commands')).runDtrCommand(argv);
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...textOptions(
        'name',
        'account',
        'label',
        'key',
        'webhook',
        'url',
        'secret',
        'active',
        'api',
        'port',
        'email',
        'roles',
        'mode',
        'thin',
      ),
      ...repeatableTextOptions('role', 'event', 'origin'),
      ...CONNECTOR_OPTIONS,
      ...BACKUP_OPTIONS,
      ...KEY_ROTATION_OPTIONS,
      ...CASE_OPTIONS,
      operator: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (!command || values.help) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }

  if (command === 'cases:retry' || command === 'cases:fail') {
    return (await import('./case-commands')).runCaseCommand(command, positionals[1], values);
  }

  if (command === 'codec-proxy') {
    return runCodecProxy({ api: values.api, port: values.port, origins: values.origin });
  }

  const config = loadConfig('admin');
  if (command === 'dev:totp-code') return printDevTotpCode(config);
  if (command === 'backup' || command === 'restore') {
    return runBackupCommand(command, values, { config, print: printJson });
  }
  if (command === 'temporal:forget-hosts') return forgetTemporalHosts(config);
  const { db, release } = await openAdminStorage(config);
  const accounts = new AccountsRepository(db);
  const print = printJson;
  try {
    switch (command) {
      case 'accounts:create': {
        const name = required(values.name, '--name');
        if (name === PLATFORM_OPERATORS_ACCOUNT)
          throw new UsageError(`"${name}" is reserved for operator keys`);
        print(await accounts.createAccount(name));
        return 0;
      }
      case 'accounts:list':
        print(await accounts.listAccounts());
        return 0;
      case 'accounts:suspend':
      case 'accounts:reactivate': {
        const accountId = required(positionals[1] ?? values.account, 'The account id');
        const status: AccountStatus = command === 'accounts:suspend' ? 'suspended' : 'active';
        const changed = await accounts.setAccountStatus(accountId, status);
        if (changed) {
          await recordOperatorAction(
            db,
            accountId,
            status === 'suspended' ? 'account.suspended' : 'account.reactivated',
            { object: 'account', id: accountId },
          );
          print(changed);
          return 0;
        }
        const account = await accounts.findAccount(accountId);
        if (!account) throw new UsageError(`No account ${accountId}`);
        process.stderr.write(`The account is already ${status}.\n`);
        print(account);
        return 0;
      }
      case 'users:create':
        return await createConsoleUser(accounts, new ConsoleUsersRepository(db), values, print);
      case 'keys:create': {
        const accountId = required(values.account, '--account');
        if (!(await accounts.findAccount(accountId))) throw new UsageError(`No account ${accountId}`);
        const roles = (values.role ?? []).map((role) => {
          if (!isRole(role)) throw new UsageError(`Unknown role "${role}"`);
          if (role === PLATFORM_ROLE) throw new UsageError('Create operator keys with operator-keys:create');
          return role as Role;
        });
        if (roles.length === 0) throw new UsageError('Give at least one --role');
        const { key, secret } = await accounts.createApiKey({
          accountId,
          roles,
          label: values.label ?? 'cli key',
          mode: modeOption(values.mode),
        });
        print({ ...key, secret });
        process.stderr.write('Store the secret now: it is not shown again.\n');
        return 0;
      }
      case 'operator-keys:create': {
        const { key, secret } = await accounts.createApiKey({
          accountId: (await platformOperatorsAccount(accounts)).id,
          roles: [PLATFORM_ROLE],
          label: values.label ?? 'operator key',
        });
        print({ ...key, secret });
        process.stderr.write('Store the secret now: it is not shown again.\n');
        return 0;
      }
      case 'keys:list':
        print(await accounts.listApiKeys(required(values.account, '--account')));
        return 0;
      case 'keys:revoke': {
        const revoked = await accounts.revokeApiKey(required(values.key, '--key'));
        if (!revoked) throw new UsageError(`No active key ${values.key}`);
        print(revoked);
        return 0;
      }
      case 'webhooks:list':
        print(await webhookAdmin(config, db).endpoints.list(required(values.account, '--account')));
        return 0;
      case 'webhooks:create': {
        const accountId = required(values.account, '--account');
        if (!(await accounts.findAccount(accountId))) throw new UsageError(`No account ${accountId}`);
        const { CreateWebhookDto } = await import('../webhooks/webhooks.dto');
        const body = await validated(CreateWebhookDto, webhookOptions(values));
        print(
          await webhookAdmin(config, db).endpoints.create({
            accountId,
            ...body,
            events: body.events.map((event) => normalizeEventType(event)!),
            livemode: modeOption(values.mode) === 'live',
          }),
        );
        return 0;
      }
      case 'webhooks:update': {
        const admin = webhookAdmin(config, db);
        const endpoint = await admin.endpoints.find(required(values.webhook, '--webhook'));
        if (!endpoint) throw new UsageError(`No webhook endpoint ${values.webhook}`);
        const { UpdateWebhookDto } = await import('../webhooks/webhooks.dto');
        // --active is checked before --thin, so a malformed --active is the error named first.
        const activeOption = booleanOption(values.active, '--active');
        const body = await validated(UpdateWebhookDto, { ...webhookOptions(values), active: activeOption });
        const { active, ...changes } = body;
        let updated = (await admin.endpoints.update(endpoint.id, endpoint.account_id, {
          ...changes,
          events: changes.events?.map((event) => normalizeEventType(event)!),
        }))!;
        if (active === false)
          updated = (await admin.endpoints.setStatus(endpoint.id, 'inactive', 'deactivated by an operator'))!;
        if (active === true) {
          // Operators run the activation check in-process: the same policy the activation workflow applies.
          const verdict = await admin.policy.verify(updated.url);
          updated = (await admin.endpoints.setStatus(
            endpoint.id,
            verdict.allowed ? 'active' : 'inactive',
            verdict.allowed ? null : `activation refused: ${verdict.reason}`,
          ))!;
        }
        print(updated);
        return 0;
      }
      case 'webhooks:delete': {
        const admin = webhookAdmin(config, db);
        const endpoint = await admin.endpoints.find(required(values.webhook, '--webhook'));
        if (!endpoint || !(await admin.endpoints.softDelete(endpoint.id, endpoint.account_id))) {
          throw new UsageError(`No webhook endpoint ${values.webhook}`);
        }
        print({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
        return 0;
      }
      case 'connectors:list':
      case 'connectors:set':
      case 'connectors:delete':
      case 'connectors:rotate-signing-key':
        return await (
          await import('./connector-commands')
        ).runConnectorCommand(command, values, { config, db, print });
      case 'keys:reencrypt':
      case 'keys:status':
        return await (
          await import('./key-commands')
        ).runKeyRotationCommand(command, values, { config, db, print });
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } finally {
    await db.close();
    release();
  }
}

/**
 * DATABASE_URL when set; else the embedded database of the data folder: through the running local
 * service, which serves it on a Unix socket, or opened here while holding the folder so that the
 * service cannot start on it meanwhile.
 */
async function openAdminStorage(config: AppConfig): Promise<{ db: Database; release: () => void }> {
  const logger = createLogger('warn', { process: 'admin' });
  const nothingHeld = () => undefined;
  if (config.databaseUrl) return { db: await openStorage(config, logger), release: nothingHeld };
  for (let attempt = 1; ; attempt++) {
    const served = await servedDatabaseUrl(config.dataDir);
    if (served) {
      return { db: await openStorage({ ...config, databaseUrl: served }, logger), release: nothingHeld };
    }
    let release: () => void;
    try {
      release = acquireDataFolder(config.dataDir, 'admin');
    } catch (error) {
      // The local service started between the two looks: use the database it serves.
      if (error instanceof DataFolderBusyError && error.holder === 'local' && attempt === 1) continue;
      throw error;
    }
    try {
      return { db: await openStorage(config, logger), release };
    } catch (error) {
      release();
      throw error;
    }
  }
}

class UsageError extends Error {}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** docs/operations.md, "Restore drill": between `pg_restore` and the Temporal server's start. */
async function forgetTemporalHosts(config: AppConfig): Promise<number> {
  if (!config.databaseUrl) {
    throw new UsageError(
      'temporal:forget-hosts needs DATABASE_URL: the PostgreSQL server the databases were restored on',
    );
  }
  const { forgetBackedUpClusterHosts, LiveClusterError, postgresEndpoint } =
    await import('../../infrastructure/temporal/production-server');
  try {
    const forgotten = await forgetBackedUpClusterHosts(postgresEndpoint(config.databaseUrl));
    printJson({ object: 'temporal_cluster_membership', hosts_forgotten: forgotten });
    return 0;
  } catch (error) {
    if (error instanceof LiveClusterError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * An account's first console user (later ones are invited from the console). Operators are
 * platform-wide, so `--operator` puts the user in the operators' own account, as operator keys are.
 */
async function createConsoleUser(
  accounts: AccountsRepository,
  users: ConsoleUsersRepository,
  options: { account?: string; email?: string; name?: string; roles?: string; operator?: boolean },
  print: (value: unknown) => void,
): Promise<number> {
  const email = required(options.email, '--email').trim();
  const { isEmail } = await import('class-validator');
  if (email.length > 320 || !isEmail(email, { require_tld: false })) {
    throw new UsageError('--email must be an email address');
  }
  const displayName = required(options.name, '--name').trim();
  if (displayName.length === 0 || displayName.length > 100 || /\p{Cc}/u.test(displayName)) {
    throw new UsageError('--name takes 1 to 100 characters without control characters');
  }

  let accountId: string;
  let roles: Role[];
  if (options.operator) {
    if (options.account || options.roles) {
      throw new UsageError('--operator makes a platform operator: leave out --account and --roles');
    }
    accountId = (await platformOperatorsAccount(accounts)).id;
    roles = [PLATFORM_ROLE];
  } else {
    accountId = required(options.account, '--account');
    const account = await accounts.findAccount(accountId);
    if (!account) throw new UsageError(`No account ${accountId}`);
    if (account.name === PLATFORM_OPERATORS_ACCOUNT) {
      throw new UsageError('Create operator users with users:create --operator');
    }
    roles = [...new Set(required(options.roles, '--roles').split(','))].map((role) => {
      const trimmed = role.trim();
      if (!isRole(trimmed)) throw new UsageError(`Unknown role "${trimmed}"`);
      if (trimmed === PLATFORM_ROLE)
        throw new UsageError('Create operator users with users:create --operator');
      return trimmed as Role;
    });
  }
  if (await users.findByEmail(email)) throw new UsageError('A console user with this email already exists');

  const piped = process.stdin.isTTY ? undefined : (await readStdin()).replace(/\r?\n$/, '');
  const password = piped || randomBytes(18).toString('base64url');
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(`The password read from stdin will not do: ${problem}`);

  const user = await users.create({ accountId, email, displayName, roles, password });
  if (piped) {
    print(user);
  } else {
    print({ ...user, password });
    process.stderr.write('Hand the password over now: it is not shown again.\n');
  }
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Local mode's development user signs in with a code from the secret its first start kept. */
function printDevTotpCode(config: AppConfig): number {
  const code = devConsoleUserTotpCode(config);
  if (!code) {
    throw new UsageError(`No development user in ${config.dataDir}: start local mode (npm start) first`);
  }
  process.stdout.write(`${code}\n`);
  process.stderr.write('Each code signs in once and changes every 30 seconds.\n');
  return 0;
}

/** Serves until SIGINT or SIGTERM; the key comes from the environment so it stays out of `ps` and shell history. */
async function runCodecProxy(options: { api?: string; port?: string; origins?: string[] }): Promise<number> {
  const apiUrl = required(options.api, '--api');
  if (!/^https?:\/\//.test(apiUrl)) throw new UsageError('--api takes the http(s) URL of the API');
  const operatorKey = process.env.OPERATOR_API_KEY?.trim();
  if (!operatorKey) throw new UsageError('Set OPERATOR_API_KEY to an operator key (operator-keys:create)');
  const port = Number(options.port ?? 8089);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port takes a port number');
  const proxy = await startCodecProxy({
    apiUrl,
    operatorKey,
    port,
    corsOrigins: options.origins ?? ['http://localhost:8080'],
  });
  process.stderr.write(
    `Codec proxy on ${proxy.endpoint} → ${apiUrl}/codec; set that URL as Temporal Web's codec endpoint.\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await proxy.close();
  return 0;
}

/**
 * Operator keys belong to no customer: they live in one account of their own, so an account's admin
 * never lists, revokes or inherits them, and the account holds no cases.
 */
async function platformOperatorsAccount(accounts: AccountsRepository): Promise<Account> {
  const existing = (await accounts.listAccounts()).find(
    (account) => account.name === PLATFORM_OPERATORS_ACCOUNT,
  );
  return existing ?? accounts.createAccount(PLATFORM_OPERATORS_ACCOUNT);
}

function webhookAdmin(config: AppConfig, db: Database) {
  const encryption = config.databaseUrl ? config.encryption : localEncryption(config);
  if (!encryption) throw new UsageError('PAYLOAD_ENCRYPTION_KEYS is required to manage webhook secrets');
  return {
    endpoints: new WebhookEndpointsRepository(db, new SecretBox(encryption)),
    policy: new WebhookTargetPolicy(config.webhooks.allowedTargets),
  };
}

/** The same DTO validation the HTTP API applies, so the CLI cannot store what the API would refuse. */
async function validated<T extends object>(type: new () => T, input: Record<string, unknown>): Promise<T> {
  const [{ plainToInstance }, { validate }] = await Promise.all([
    import('class-transformer'),
    import('class-validator'),
  ]);
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const instance = plainToInstance(type, defined);
  const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) {
    const problems = errors.flatMap((error) =>
      Object.values(error.constraints ?? {}).map((issue) => `--${error.property}: ${issue}`),
    );
    throw new UsageError(problems.join('\n'));
  }
  return instance;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/** `--mode test|live`; test when it is left out, as every key issued before modes is. */
function modeOption(value: string | undefined): KeyMode {
  if (value === undefined) return 'test';
  if (!(KEY_MODES as readonly string[]).includes(value)) throw new UsageError('--mode takes test or live');
  return value as KeyMode;
}

/** The endpoint fields `webhooks:create` and `webhooks:update` both take, from the same options. */
function webhookOptions(values: {
  name?: string;
  url?: string;
  secret?: string;
  event?: string[];
  thin?: string;
}): Record<string, unknown> {
  return {
    name: values.name,
    url: values.url,
    secret: values.secret,
    events: values.event,
    thin: booleanOption(values.thin, '--thin'),
  };
}

function booleanOption(value: string | undefined, flag: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw new UsageError(`${flag} takes true or false`);
  return value === 'true';
}

/**
 * Exits once stdout and stderr have written everything: on Node 24 a pipe takes writes asynchronously,
 * and exiting at once cut a long answer (a backup's manifest) short.
 */
function exitWhenWritten(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main(process.argv.slice(2)).then(exitWhenWritten, (error: Error) => {
  const usage = error instanceof UsageError || error instanceof CaseCommandError;
  process.stderr.write(`${usage ? `${error.message}\n\n${USAGE}` : error.message}\n`);
  exitWhenWritten(usage ? 2 : 1);
});
