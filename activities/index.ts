import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';

import type { AppConfig } from '../src/config/config';
import { SecretBox } from '../src/crypto/aes-gcm';
import type { Database } from '../src/storage/database';
import { DeliveryAttempts } from '../src/webhooks/delivery-attempt';
import { DurableDeliveries } from '../src/webhooks/durable-deliveries';
import { FirstAttempts } from '../src/webhooks/first-attempts';
import { WebhookTargetPolicy } from '../src/webhooks/target-policy';
import { WebhookDeliveriesRepository } from '../src/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../src/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../src/webhooks/webhook-publisher';
import { CaseDocumentsRepository } from '../src/cases/case-documents.repository';
import { EvaluationPool } from '../src/clinical/evaluation-pool';
import { PayerSimulator } from '../src/connectors/payer-simulator';
import { ProgramHubSimulator } from '../src/programs/program-hub';
import { createCaseBindingActivities } from './case-binding.activities';
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
  /** For what goes wrong outside any activity (a first webhook attempt that could not finish). */
  logger?: Logger;
}

/**
 * Every side effect the workflows may ask for, built from injected dependencies, and `close` for what
 * they hold open (the clinical evaluation threads, first webhook attempts in flight), called when the
 * worker stops.
 */
export const createActivities = ({ config, db, temporalClient, taskQueue, logger }: ActivityDependencies) => {
  const secrets = new SecretBox(config.encryption!);
  const deliveries = new WebhookDeliveriesRepository(db, secrets);
  const endpoints = new WebhookEndpointsRepository(db, secrets);
  const policy = new WebhookTargetPolicy(config.webhooks.allowedTargets);
  const webhookTargets = { taskQueue, webhooks: config.webhooks };
  const firstAttempts = new FirstAttempts(
    new DeliveryAttempts({ endpoints, deliveries, policy, settings: config.webhooks }),
    new DurableDeliveries(deliveries, temporalClient, webhookTargets),
    config.webhooks,
    logger,
  );
  // Clinical text is read off the event loop, so one pathological record cannot stall this worker.
  const evaluator = new EvaluationPool(config.clinicalEvaluation, { logger });
  // Local mode and tests use the simulators; real payer and hub connectors implement the same interfaces.
  const payer = new PayerSimulator({ evaluator });
  const documents = new CaseDocumentsRepository(db, secrets);
  const activities = {
    ...createCaseBindingActivities({ encryption: config.encryption! }),
    ...createCaseActivities({ payer, documents }),
    ...createClinicalActivities({ documents, evaluator }),
    ...createEnrollmentActivities({ payer, hub: new ProgramHubSimulator() }),
    ...createWebhookActivities({
      endpoints,
      deliveries,
      publisher: new WebhookPublisher(deliveries, temporalClient, webhookTargets, firstAttempts),
      policy,
      settings: config.webhooks,
    }),
  };
  return {
    activities,
    close: async () => void (await Promise.all([evaluator.close(), firstAttempts.settle()])),
  };
};
