import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';

/** What an area of the console may build its providers from; the rest comes by injection. */
export interface ConsoleAreaDependencies {
  config: AppConfig;
  db: Database;
  temporalClient: Client;
  secrets: SecretBox;
}
