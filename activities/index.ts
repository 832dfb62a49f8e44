import type { Client } from '@temporalio/client';

import type { AppConfig } from '../src/config/config';
import { SecretBox } from '../src/crypto/aes-gcm';
import type { Database } from '../src/storage/database';
import { WebhookTargetPolicy } from '../src/webhooks/target-policy';
import { WebhookDeliveriesRepository } from '../src/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../src/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../src/webhooks/webhook-publisher';
import { CaseDocumentsRepository } from '../src/cases/case-documents.repository';
import { PayerSimulator } from '../src/connectors/payer-simulator';
import { ProgramHubSimulator } from '../src/programs/program-hub';
import { createCaseActivities } from './cases.activities';
import { createClinicalActivities } from './clinical.activities';
import { createEnrollmentActivities } from './enrollment.activities';
import { createWebhookActivities } from './webhooks.activities';

/** What the worker process opens once and every activity shares. */
export interface ActivityDependencies {
  config: AppConfig;
  db: Database;
  temporalClient: Client;
  /** The worker's task queue, where follow-up workflows (deliveries) are started. */
  taskQueue: string;
}

/** Every side effect the workflows may ask for, built from injected dependencies. */
export const createActivities = ({ config, db, temporalClient, taskQueue }: ActivityDependencies) => {
  const secrets = new SecretBox(config.encryption!);
  const deliveries = new WebhookDeliveriesRepository(db, secrets);
  // Local mode and tests use the simulators; real payer and hub connectors implement the same interfaces.
  const payer = new PayerSimulator();
  const documents = new CaseDocumentsRepository(db, secrets);
  return {
    ...createCaseActivities({ payer, documents }),
    ...createClinicalActivities({ documents }),
    ...createEnrollmentActivities({ payer, hub: new ProgramHubSimulator() }),
    ...createWebhookActivities({
      endpoints: new WebhookEndpointsRepository(db, secrets),
      deliveries,
      publisher: new WebhookPublisher(deliveries, temporalClient, {
        taskQueue,
        webhooks: config.webhooks,
      }),
      policy: new WebhookTargetPolicy(config.webhooks.allowedTargets),
      settings: config.webhooks,
    }),
  };
};
