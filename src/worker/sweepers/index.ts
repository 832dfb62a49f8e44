import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import { CaseDocumentsRepository } from '../../../infrastructure/cases/case-documents.repository';
import type { AppConfig } from '../../../infrastructure/config/config';
import { SecretBox } from '../../../infrastructure/crypto/aes-gcm';
import { ProviderAuthorizationsRepository } from '../../../infrastructure/provider-authorizations/provider-authorizations.repository';
import { SigningLinksRepository } from '../../../infrastructure/provider-authorizations/signing-links.repository';
import type { Database } from '../../../infrastructure/storage/database';
import { DurableDeliveries } from '../../../infrastructure/webhooks/durable-deliveries';
import { EventsRepository } from '../../../infrastructure/webhooks/events.repository';
import { WebhookDeliveriesRepository } from '../../../infrastructure/webhooks/webhook-deliveries.repository';
import { ExpiredEventsSweeper } from './expired-events';
import { RequestOriginsSweeper } from './request-origins';
import { SpentSigningLinksSweeper } from './spent-signing-links';
import { StalledDeliverySweeper } from './stalled-deliveries';
import { sweepWhileRunning, WorkerLifecycle } from './sweep-while-running';
import { UnstartedDocumentsSweeper } from './unstarted-documents';

/**
 * The clean-ups only workers run, each on its own interval while `worker` runs: deliveries whose first
 * attempt died with its process, documents of cases never started, events past retention, the
 * links mailed to prescribers once used or lapsed, and where authorizations were asked and signed
 * from once past retention.
 */
export function sweepWhileWorkerRuns(
  worker: WorkerLifecycle,
  deps: { config: AppConfig; db: Database; temporalClient: Client; taskQueue: string; logger: Logger },
): void {
  const secrets = new SecretBox(deps.config.encryption!);
  const deliveries = new WebhookDeliveriesRepository(deps.db, secrets);
  const durable = new DurableDeliveries(deliveries, deps.temporalClient, {
    taskQueue: deps.taskQueue,
    webhooks: deps.config.webhooks,
  });
  const sweepers = [
    new StalledDeliverySweeper(deliveries, durable, deps.config.webhooks),
    new UnstartedDocumentsSweeper(new CaseDocumentsRepository(deps.db, secrets), deps.temporalClient),
    new ExpiredEventsSweeper(new EventsRepository(deps.db, secrets)),
    new SpentSigningLinksSweeper(new SigningLinksRepository(deps.db)),
    new RequestOriginsSweeper(
      new ProviderAuthorizationsRepository(deps.db),
      deps.config.providers.requestOriginRetentionDays,
    ),
  ];
  for (const sweeper of sweepers) sweepWhileRunning(worker, sweeper, deps.logger);
}
