/**
 * The payload key commands' help and flags, apart from the commands so the CLI parses and lists them
 * without loading the Temporal client.
 */
export const KEY_ROTATION_USAGE = `  keys:reencrypt [--batch-size N] [--max-values N]
                                                   re-encrypt every sealed SQL value (documents,
                                                   webhook and connector secrets, event bodies,
                                                   second-factor secrets, idempotent answers) to the
                                                   current payload key, N per transaction (default
                                                   100); safe while the
                                                   service runs; --max-values stops early, and a
                                                   later run continues where it stopped
  keys:status                                      per payload key id: the SQL values and the
                                                   Temporal executions and schedules that still need
                                                   it, and whether it can be removed`;

export const KEY_ROTATION_OPTIONS = {
  'batch-size': { type: 'string' },
  'max-values': { type: 'string' },
} as const;

export interface KeyRotationFlags {
  'batch-size'?: string;
  'max-values'?: string;
}
