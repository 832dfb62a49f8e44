import type { Client } from '@temporalio/client';
import { MetricMeter, noopMetricMeter } from '@temporalio/common';
import type { Logger } from 'pino';

import { CasePurgeRepository } from '../infrastructure/cases/case-purge.repository';
import { CaseDocumentsRepository } from '../infrastructure/cases/case-documents.repository';
import { CaseSummariesRepository } from '../infrastructure/cases/case-summaries.repository';
import { EvaluationPool } from '../infrastructure/clinical/evaluation-pool';
import { liveDtrServices, nextPayerQuestions, payerQuestionnaires } from './payer-questionnaire';
import { evidenceReader } from './evidence-reading';
import { DocumentReadingsRepository } from '../infrastructure/documents/document-readings.repository';
import { DEFAULT_READING_SETTINGS, DocumentReadingPool } from '../infrastructure/documents/reading-pool';
import type { Mailer } from '../domain/mail/outgoing-mail';
import type { PayerConnector } from '../domain/payers/payer-connector';
import type { AppConfig } from '../infrastructure/config/config';
import { PayerSimulator } from '../infrastructure/connectors/payer-simulator';
import { CatalogPlanResolver } from '../infrastructure/connectors/plan-resolution';
import { ProgramHubConnector, ProgramHubSimulator } from '../infrastructure/connectors/program-hub';
import { ConnectorSettingsRepository } from '../infrastructure/connectors/connector-settings.repository';
import { SecretBox } from '../infrastructure/crypto/aes-gcm';
import { AuditRepository } from '../infrastructure/audit/audit.repository';
import { FormulariesRepository } from '../infrastructure/formularies/formularies.repository';
import { NpiRegistries } from '../infrastructure/providers/npi-registries';
import { accountMailer } from '../infrastructure/mail/account-mailer';
import { ProviderAuthorizationsRepository } from '../infrastructure/provider-authorizations/provider-authorizations.repository';
import { SigningLinksRepository } from '../infrastructure/provider-authorizations/signing-links.repository';
import type { Database } from '../infrastructure/storage/database';
import { DurableDeliveries } from '../infrastructure/webhooks/durable-deliveries';
import { FirstAttempts } from '../infrastructure/webhooks/first-attempts';
import { WebhookTargetPolicy } from '../infrastructure/webhooks/target-policy';
import { WebhookDeliveriesRepository } from '../infrastructure/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../infrastructure/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../infrastructure/webhooks/webhook-publisher';
import { createCaseBindingActivities } from './case-binding.activities';
import { createCaseRetentionActivities } from './case-retention.activities';
import { createCaseSummaryActivities } from './case-summaries.activities';
import { CaseActivityDependencies, createCaseActivities, liveClearinghouses } from './cases.activities';
import { createClinicalActivities } from './clinical.activities';
import { createDocumentActivities } from './documents.activities';
import { createEnrollmentActivities } from './enrollment.activities';
import { createPrescriberRegistryActivities } from './prescriber-registry';
import { createProviderAuthorizationActivities } from './provider-authorizations';
import { coverageRequirementsDiscovery, liveCrdServices } from './coverage-requirements-discovery';
import { livePasEndpoints, priorAuthorizationChannels } from './prior-authorization-channels';
import { MeteredDeliveryAttempts, WebhookMetrics } from '../infrastructure/webhooks/delivery-metrics';
import { createWebhookActivities } from './webhooks.activities';

/** The outside systems cases talk to; each one not given is the local simulator. */
export interface Connectors {
  payer?: PayerConnector;
  programHub?: ProgramHubConnector;
  /** The channel of each prior authorization, by account, mode and drug; PAS (sandbox or live) otherwise. */
  priorAuthorizationChannel?: CaseActivityDependencies['priorAuthorizationChannel'];
  /** Mail to prescribers; the account's outbox (test and local mode) or its SMTP connector (live) by default. */
  mailer?: Mailer;
}

/** What the worker process opens once and every activity shares. */
export interface ActivityDependencies {
  config: AppConfig;
  db: Database;
  temporalClient: Client;
  /** The worker's task queue, where follow-up workflows (deliveries) are started. */
  taskQueue: string;
  /** For what goes wrong outside any activity (a first webhook attempt that could not finish). */
  logger?: Logger;
  connectors?: Connectors;
  /** Where the webhook metrics go: the Temporal runtime's meter, served with the SDK's own metrics. */
  metricMeter?: MetricMeter;
}

/**
 * The worker's webhook path: metered attempts, first attempts made at once outside Temporal, and the
 * publisher that records each event's deliveries and starts their first attempts. `secrets` is the
 * box the worker's other repositories seal with, where it has one.
 */
export function createWorkerWebhooks(
  {
    config,
    db,
    temporalClient,
    taskQueue,
    logger,
    metricMeter = noopMetricMeter,
  }: Omit<ActivityDependencies, 'connectors'>,
  secrets = new SecretBox(config.encryption!),
) {
  const deliveries = new WebhookDeliveriesRepository(db, secrets);
  const endpoints = new WebhookEndpointsRepository(db, secrets);
  const policy = new WebhookTargetPolicy(config.webhooks.allowedTargets);
  const webhookTargets = { taskQueue, webhooks: config.webhooks };
  const metrics = new WebhookMetrics(metricMeter);
  const attempts = new MeteredDeliveryAttempts(
    { endpoints, deliveries, policy, settings: config.webhooks },
    metrics,
  );
  const firstAttempts = new FirstAttempts(
    attempts,
    new DurableDeliveries(deliveries, temporalClient, webhookTargets),
    config.webhooks,
    logger,
  );
  const publisher = new WebhookPublisher(deliveries, temporalClient, webhookTargets, firstAttempts);
  return { attempts, metrics, endpoints, deliveries, policy, firstAttempts, publisher };
}

/**
 * Every side effect the workflows may ask for, built from injected dependencies, and `close` for what
 * they hold open (the clinical evaluation threads, first webhook attempts in flight), called when the
 * worker stops.
 */
export const createActivities = ({
  config,
  db,
  temporalClient,
  taskQueue,
  logger,
  connectors = {},
  metricMeter = noopMetricMeter,
}: ActivityDependencies) => {
  const secrets = new SecretBox(config.encryption!);
  const webhooks = createWorkerWebhooks(
    { config, db, temporalClient, taskQueue, logger, metricMeter },
    secrets,
  );
  const { policy, firstAttempts } = webhooks;
  // Clinical text is read off the event loop, so one pathological record cannot stall this worker.
  const evaluator = new EvaluationPool(config.clinicalEvaluation, { logger });
  // Local mode uses the simulators; real connectors, and tests' doubles, implement the same interfaces.
  const simulator = new PayerSimulator({ evaluator });
  const payer = connectors.payer ?? simulator;
  const hub = connectors.programHub ?? new ProgramHubSimulator();
  const documents = new CaseDocumentsRepository(db, secrets);
  const readings = new DocumentReadingsRepository(db, secrets);
  // Documents are read off the event loop too, in threads of their own with a time limit per page.
  const reader = new DocumentReadingPool(
    { ...DEFAULT_READING_SETTINGS, recycleAfterPages: config.documentReading.recycleThreadAfterPages },
    { logger },
  );
  const connectorSettings = new ConnectorSettingsRepository(db, secrets, config.publicApiUrl);
  const webhookActivities = createWebhookActivities({ ...webhooks, settings: config.webhooks });
  const dtrDependencies = {
    evaluator,
    readEvidence: evidenceReader({ documents, readings }),
    liveDtrService: liveDtrServices(connectorSettings),
    policy,
  };
  const activities = {
    ...createCaseBindingActivities({ encryption: config.encryption! }),
    ...createCaseActivities({
      payer,
      priorAuthorizationChannel:
        connectors.priorAuthorizationChannel ??
        priorAuthorizationChannels({
          simulator,
          livePasEndpoint: livePasEndpoints(connectorSettings, policy),
        }),
      coverageRequirements: coverageRequirementsDiscovery({
        liveCrdService: liveCrdServices(connectorSettings),
        policy,
      }),
      payerQuestionnaire: payerQuestionnaires(dtrDependencies),
      nextPayerQuestions: nextPayerQuestions(dtrDependencies),
      documents,
      readings,
      formularies: new FormulariesRepository(db),
      liveClearinghouse: liveClearinghouses(connectorSettings, policy),
    }),
    ...createCaseRetentionActivities({
      purges: new CasePurgeRepository(db),
      temporalClient,
      namespace: config.temporal.namespace,
      retentionDays: config.cases.retentionDays,
    }),
    ...createCaseSummaryActivities({
      summaries: new CaseSummariesRepository(db),
      box: secrets,
      publishEvent: webhookActivities.publishEvent,
    }),
    ...createDocumentActivities({
      documents,
      readings,
      reader,
      ocrPagesPerCase: config.documentReading.ocrPagesPerCase,
    }),
    ...createClinicalActivities({ documents, readings, evaluator, plans: new CatalogPlanResolver() }),
    ...createEnrollmentActivities({ payer, hub }),
    ...createPrescriberRegistryActivities(new NpiRegistries(config.providers)),
    ...createProviderAuthorizationActivities({
      authorizations: new ProviderAuthorizationsRepository(db),
      links: new SigningLinksRepository(db),
      audit: new AuditRepository(db),
      publishEvent: webhookActivities.publishEvent,
      mailer: connectors.mailer ?? accountMailer({ config, db, secrets }),
      // Local mode's launcher sets PUBLIC_API_URL; elsewhere without one, the API's own port on this host.
      linkBase: config.publicApiUrl ?? `http://localhost:${config.http.port}`,
    }),
    ...webhookActivities,
  };
  return {
    activities,
    close: async () => void (await Promise.all([evaluator.close(), reader.close(), firstAttempts.settle()])),
  };
};
