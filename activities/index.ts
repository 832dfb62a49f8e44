import type { Client } from '@temporalio/client';

import type { AppConfig } from '../src/config/config';
import { SecretBox } from '../src/crypto/aes-gcm';
import type { Database } from '../src/storage/database';
import { WebhookTargetPolicy } from '../src/webhooks/target-policy';
import { WebhookDeliveriesRepository } from '../src/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../src/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../src/webhooks/webhook-publisher';
import { CaseDocumentsRepository } from '../src/cases/case-documents.repository';
import { EvaluationPool } from '../src/clinical/evaluation-pool';
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

/**
 * Every side effect the workflows may ask for, built from injected dependencies, and `close` for what
 * they hold open (the clinical evaluation threads), called when the worker stops.
 */
export const createActivities = ({ config, db, temporalClient, taskQueue }: ActivityDependencies) => {
  const secrets = new SecretBox(config.encryption!);
  const deliveries = new WebhookDeliveriesRepository(db, secrets);
  // Clinical text is read off the event loop, so one pathological record cannot stall this worker.
  const evaluator = new EvaluationPool(config.clinicalEvaluation);
  // Local mode and tests use the simulators; real payer and hub connectors implement the same interfaces.
  const payer = new PayerSimulator({ evaluator });
  const documents = new CaseDocumentsRepository(db, secrets);
  const activities = {
    ...createCaseActivities({ payer, documents }),
    ...createClinicalActivities({ documents, evaluator }),
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
  return { activities, close: () => evaluator.close() };
};
