import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { columnName, SEALED_COLUMNS } from '../../infrastructure/crypto/sealed-values';

const MIGRATIONS = path.join(__dirname, '..', '..', 'migrations');

/** Every `<name>_sealed` column the migrations create, as `table.column`. */
function sealedColumnsOfMigrations(): string[] {
  const found: string[] = [];
  for (const file of readdirSync(MIGRATIONS)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    const sql = readFileSync(path.join(MIGRATIONS, file), 'utf8').replace(/--.*$/gm, '');
    for (const [, table, body] of sql.matchAll(/CREATE TABLE (\w+) \(([\s\S]*?)\n\);/g)) {
      for (const [, column] of body!.matchAll(/^\s*(\w+_sealed)\s/gm)) found.push(`${table}.${column}`);
    }
    for (const [, table, column] of sql.matchAll(
      /ALTER TABLE (\w+) ADD COLUMN (?:IF NOT EXISTS )?(\w+_sealed)\b/g,
    )) {
      found.push(`${table}.${column}`);
    }
  }
  return found.sort();
}

describe('the sealed columns key rotation re-encrypts', () => {
  it('are every sealed column the migrations create', () => {
    expect(SEALED_COLUMNS.map(columnName).sort()).toEqual(sealedColumnsOfMigrations());
  });
});
