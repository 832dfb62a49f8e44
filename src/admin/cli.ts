import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

import { AccountsRepository } from '../auth/accounts.repository';
import { isRole, Role } from '../auth/roles';
import { openStorage } from '../bootstrap';
import { loadConfig } from '../config/config';
import { createLogger } from '../common/logger';

const USAGE = `Usage: npm run admin -- <command> [options]

Commands:
  accounts:create --name NAME                      create an account
  accounts:list                                    list accounts
  keys:create --account ID --role ROLE [--role …] [--label TEXT]
                                                   create an API key (the secret is printed once)
  keys:list --account ID                           list an account's keys (no secrets)
  keys:revoke --key ID                             revoke a key at once

Roles: provider, reviewer, admin. Uses DATABASE_URL, else the local data folder (DATA_DIR).`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      account: { type: 'string' },
      role: { type: 'string', multiple: true },
      label: { type: 'string' },
      key: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (!command || values.help) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }

  const config = loadConfig('admin');
  if (!config.databaseUrl) refuseWhileLocalServiceRuns(config.dataDir);
  const db = await openStorage(config, createLogger('warn', { process: 'admin' }));
  const accounts = new AccountsRepository(db);
  const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  try {
    switch (command) {
      case 'accounts:create':
        print(await accounts.createAccount(required(values.name, '--name')));
        return 0;
      case 'accounts:list':
        print(await accounts.listAccounts());
        return 0;
      case 'keys:create': {
        const accountId = required(values.account, '--account');
        if (!(await accounts.findAccount(accountId))) throw new UsageError(`No account ${accountId}`);
        const roles = (values.role ?? []).map((role) => {
          if (!isRole(role)) throw new UsageError(`Unknown role "${role}"`);
          return role as Role;
        });
        if (roles.length === 0) throw new UsageError('Give at least one --role');
        const { key, secret } = await accounts.createApiKey({
          accountId,
          roles,
          label: values.label ?? 'cli key',
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
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } finally {
    await db.close();
  }
}

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

/** The embedded database admits one process; the running service already holds it. */
function refuseWhileLocalServiceRuns(dataDir: string): void {
  const lockFile = path.join(dataDir, 'local.pid');
  if (!existsSync(lockFile)) return;
  const pid = Number(readFileSync(lockFile, 'utf8'));
  try {
    process.kill(pid, 0);
  } catch {
    return;
  }
  throw new UsageError(
    `The local service (pid ${pid}) holds the embedded database. Stop it first, or manage keys over ` +
      'HTTP with an admin key: GET/POST /api-keys, DELETE /api-keys/{id}.',
  );
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(`${error instanceof UsageError ? `${error.message}\n\n${USAGE}` : error.message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
