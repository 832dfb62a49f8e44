import { readFileSync } from 'node:fs';
import * as path from 'node:path';

import {
  HISTORY_SHARDS,
  postgresEndpoint,
  TEMPORAL_CONFIG_DIR,
  TEMPORAL_CONFIG_ENVIRONMENT,
} from '../../infrastructure/temporal/production-server';

describe('the production Temporal server’s settings', () => {
  it('reads the host, port, user and password Temporal needs from a PostgreSQL URL', () => {
    expect(postgresEndpoint('postgres://temporal:s%40cret@db.internal:5433/healthcare_access')).toEqual({
      host: 'db.internal',
      port: 5433,
      user: 'temporal',
      password: 's@cret',
    });
  });

  it('refuses a URL whose connection options Temporal would silently drop', () => {
    expect(() => postgresEndpoint('postgres://app:pw@db.internal/app?sslmode=require')).toThrow(
      /without options such as sslmode/,
    );
  });

  it('checks the shard count the configuration file asks for', () => {
    const configuration = readFileSync(
      path.join(TEMPORAL_CONFIG_DIR, `${TEMPORAL_CONFIG_ENVIRONMENT}.yaml`),
      'utf8',
    );
    expect(configuration).toMatch(new RegExp(`^  numHistoryShards: ${HISTORY_SHARDS}$`, 'm'));
  });
});
