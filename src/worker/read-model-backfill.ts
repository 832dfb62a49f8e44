import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import { CaseReadModelBackfill } from '../../infrastructure/cases/case-read-model-backfill';
import { CaseSummariesRepository } from '../../infrastructure/cases/case-summaries.repository';
import type { AppConfig } from '../../infrastructure/config/config';
import { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { CaseBindingEpoch } from '../../infrastructure/cases/case-binding-epoch';

export function caseReadModelBackfill(deps: {
  client: Client;
  db: Database;
  config: AppConfig;
}): CaseReadModelBackfill {
  const epoch = new CaseBindingEpoch(deps.db);
  return new CaseReadModelBackfill({
    client: deps.client,
    namespace: deps.config.temporal.namespace,
    summaries: new CaseSummariesRepository(deps.db),
    box: new SecretBox(deps.config.encryption!),
    encryption: deps.config.encryption!,
    startedBeforeBindings: (startTime) => epoch.startedBefore(startTime),
  });
}

/**
 * Every worker runs one backfill pass when it starts, beside its work: a pass over cases that all
 * have their row writes nothing, and two workers starting together write each row at most twice, the
 * same way. A pass that fails is logged and left to the next start.
 */
export function backfillCaseReadModelInBackground(
  deps: { client: Client; db: Database; config: AppConfig },
  logger: Logger,
): void {
  const startedAt = Date.now();
  caseReadModelBackfill(deps)
    .run()
    .then(
      (result) =>
        logger.info({ ...result, durationMs: Date.now() - startedAt }, 'case read model backfill finished'),
      (error: Error) =>
        logger.warn(
          { error: error.message },
          'case read model backfill stopped; the next worker start runs it again',
        ),
    );
}
