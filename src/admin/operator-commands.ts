import { newId } from '../../domain/ids';
import type { AuditAction, AuditDetails, AuditTarget } from '../../infrastructure/audit/audit-event';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import type { Database } from '../../infrastructure/storage/database';

/**
 * What a command refuses to do as asked (a flag missing, a folder in use): it exits 2 with this
 * sentence alone, without the CLI's whole usage.
 */
export class CommandRefusal extends Error {}

/** Runs a command; a refusal is written to stderr and exits 2, any other failure stays as it is. */
export async function exitTwoOnRefusal(command: () => Promise<number>): Promise<number> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof CommandRefusal) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

export function requiredFlag(value: string | undefined, flag: string): string {
  if (!value) throw new CommandRefusal(`${flag} is required`);
  return value;
}

/**
 * CLI actions are audited in the account they change (none for the platform's own keys); the
 * operator at the CLI has no credential id.
 */
export async function recordOperatorAction(
  db: Database,
  accountId: string | null,
  action: AuditAction,
  target: AuditTarget,
  details?: AuditDetails,
): Promise<void> {
  await new AuditRepository(db).record([
    {
      accountId,
      actor: { type: 'operator', id: 'admin-cli' },
      action,
      target,
      requestId: newId('request'),
      details,
    },
  ]);
}
