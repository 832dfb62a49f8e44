import type { AppConfig, EncryptionSettings } from '../../infrastructure/config/config';
import {
  columnName,
  SEALED_COLUMNS,
  SealedValueRotation,
  UnconfiguredKeyError,
} from '../../infrastructure/crypto/sealed-values';
import type { Database } from '../../infrastructure/storage/database';
import { localEncryption } from '../bootstrap';
import type { KeyRotationFlags } from './key-rotation-usage';
import { CommandRefusal, exitTwoOnRefusal, recordOperatorAction } from './operator-commands';
import type { KeyUseInTemporal } from './temporal-key-usage';

interface KeyCommandContext {
  config: AppConfig;
  db: Database;
  print: (value: unknown) => void;
}

/** Runs keys:reencrypt or keys:status; mistakes exit 2, a value under a key that is not configured exits 1. */
export async function runKeyRotationCommand(
  command: string,
  flags: KeyRotationFlags,
  context: KeyCommandContext,
): Promise<number> {
  try {
    return await exitTwoOnRefusal(async () => {
      const encryption = context.config.databaseUrl
        ? context.config.encryption
        : localEncryption(context.config);
      if (!encryption) throw new CommandRefusal('PAYLOAD_ENCRYPTION_KEYS is required to rotate payload keys');
      return command === 'keys:reencrypt'
        ? await reencrypt(flags, encryption, context)
        : await status(encryption, context);
    });
  } catch (error) {
    if (!(error instanceof UnconfiguredKeyError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
}

async function reencrypt(
  flags: KeyRotationFlags,
  encryption: EncryptionSettings,
  { db, print }: KeyCommandContext,
): Promise<number> {
  const batchSize = positiveInteger(flags['batch-size'], '--batch-size', 100);
  const maxValues = positiveInteger(flags['max-values'], '--max-values', Number.POSITIVE_INFINITY);
  const rotation = new SealedValueRotation(db, encryption);
  const current = encryption.currentKeyId;

  // Every key the data names must be configured before anything is rewritten, so a missing key
  // stops the run at its start rather than half-way through a table.
  const before = await rotation.countByKey();
  const missing = before.find(({ keyId }) => !encryption.keys.has(keyId));
  if (missing) throw new UnconfiguredKeyError(missing.keyId, missing.column);
  const toDo = before.filter(({ keyId }) => keyId !== current).reduce((sum, { values }) => sum + values, 0);
  process.stderr.write(`Re-encrypting ${toDo} values to key "${current}", ${batchSize} per transaction.\n`);

  const reencrypted: Record<string, number> = {};
  let total = 0;
  let skipped = 0;
  for (const sealed of SEALED_COLUMNS) {
    const column = columnName(sealed);
    reencrypted[column] = 0;
    let after: string | undefined;
    while (total < maxValues) {
      const batch = await rotation.reencryptBatch(sealed, after, Math.min(batchSize, maxValues - total));
      if (batch.lastId === undefined) break;
      after = batch.lastId;
      reencrypted[column] += batch.reencrypted;
      total += batch.reencrypted;
      skipped += batch.skipped;
      process.stderr.write(`${column}: ${reencrypted[column]} re-encrypted (${total} of ${toDo})\n`);
    }
  }

  const remaining = (await rotation.countByKey())
    .filter(({ keyId }) => keyId !== current)
    .reduce((sum, { values }) => sum + values, 0);
  await recordOperatorAction(
    db,
    null,
    'payload_key.values_reencrypted',
    { object: 'payload_key', id: current },
    { reencrypted: total, skipped, remaining },
  );
  print({ current_key_id: current, reencrypted, skipped, remaining, complete: remaining === 0 });
  process.stderr.write(
    remaining === 0
      ? `Every sealed SQL value is under key "${current}".\n`
      : `${remaining} values are still under other keys: run keys:reencrypt again.\n`,
  );
  return 0;
}

async function status(
  encryption: EncryptionSettings,
  { config, db, print }: KeyCommandContext,
): Promise<number> {
  const sqlCounts = await new SealedValueRotation(db, encryption).countByKey();
  // Only keys:status reads Temporal: keys:reencrypt runs without loading its client.
  const [{ connectClient }, { keysNeededByTemporal, noUseInTemporal }] = await Promise.all([
    import('../../infrastructure/temporal/temporal-connection'),
    import('./temporal-key-usage'),
  ]);
  const client = await connectClient(config.temporal, encryption);
  let temporalUse: Map<string, KeyUseInTemporal>;
  try {
    temporalUse = await keysNeededByTemporal(client, config.temporal, (read) =>
      process.stderr.write(`Read the histories of ${read} executions.\n`),
    );
  } finally {
    await client.connection.close();
  }

  const keyIds = new Set([
    ...encryption.keys.keys(),
    ...sqlCounts.map(({ keyId }) => keyId),
    ...temporalUse.keys(),
  ]);
  const keys = [...keyIds].sort().map((keyId) => {
    const sqlValues = Object.fromEntries(
      sqlCounts.filter((count) => count.keyId === keyId).map(({ column, values }) => [column, values]),
    );
    const temporalNeeds = temporalUse.get(keyId) ?? noUseInTemporal();
    const state = {
      keyId,
      configured: encryption.keys.has(keyId),
      current: keyId === encryption.currentKeyId,
      sqlValues: Object.values(sqlValues).reduce((sum, values) => sum + values, 0),
      temporal: temporalNeeds,
    };
    const reasons = reasonsToKeep(state, config.temporal.namespace);
    return {
      key_id: keyId,
      configured: state.configured,
      current: state.current,
      sql_values: sqlValues,
      temporal: {
        open_executions: temporalNeeds.openExecutions,
        closed_executions: temporalNeeds.closedExecutions,
        schedules: temporalNeeds.schedules,
        example_workflow_ids: temporalNeeds.exampleWorkflowIds,
      },
      removable: reasons.length === 0,
      verdict:
        reasons.length === 0
          ? 'Nothing stored needs this key: remove it from PAYLOAD_ENCRYPTION_KEYS and restart every process.'
          : reasons.join(' '),
    };
  });
  print({ current_key_id: encryption.currentKeyId, namespace: config.temporal.namespace, keys });
  return 0;
}

function reasonsToKeep(
  key: {
    configured: boolean;
    current: boolean;
    sqlValues: number;
    temporal: KeyUseInTemporal;
  },
  namespace: string,
): string[] {
  const reasons: string[] = [];
  if (!key.configured) {
    reasons.push(
      'It is not configured, so what it sealed cannot be read: add it back to PAYLOAD_ENCRYPTION_KEYS.',
    );
  }
  if (key.current) reasons.push('It is the current key: everything new is sealed under it.');
  if (key.sqlValues > 0) {
    reasons.push(`${key.sqlValues} SQL values are sealed under it: run keys:reencrypt.`);
  }
  const { openExecutions, closedExecutions, schedules } = key.temporal;
  if (openExecutions > 0) {
    reasons.push(
      `${openExecutions} running executions in ${namespace} recorded payloads under it (or a case ` +
        'binding made with it): they need it until they close and Temporal deletes them.',
    );
  }
  if (closedExecutions > 0) {
    reasons.push(
      `${closedExecutions} closed executions that ${namespace} still retains need it to be read: ` +
        'keep it until the namespace retention or the retention purge deletes them.',
    );
  }
  if (schedules > 0) {
    reasons.push(`${schedules} schedules hold an action sealed under it: update or re-create them.`);
  }
  return reasons;
}

function positiveInteger(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || parsed < 1 || parsed > 100_000) {
    throw new CommandRefusal(`${flag} takes a whole number from 1 to 100000`);
  }
  return parsed;
}
