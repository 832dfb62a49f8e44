import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { WebhookDeliveriesRepository } from '../../infrastructure/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../../infrastructure/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
import { providedByClass } from '../common/feature-modules';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

// What the console's webhooks and case pages use of webhooks.
export { CreateWebhookDto, ListDeliveriesQuery, UpdateWebhookDto } from './webhooks.dto';
export { WebhooksService };

/** Webhook endpoints and their deliveries: the API, and the service the console shares. */
@Module({})
export class WebhooksModule {
  static forRoot(deps: {
    config: AppConfig;
    db: Database;
    temporalClient: Client;
    secrets: SecretBox;
  }): DynamicModule {
    const endpoints = new WebhookEndpointsRepository(deps.db, deps.secrets);
    const deliveries = new WebhookDeliveriesRepository(deps.db, deps.secrets);
    const publisher = new WebhookPublisher(deliveries, deps.temporalClient, {
      taskQueue: deps.config.temporal.taskQueue,
      webhooks: deps.config.webhooks,
    });
    const webhooks = new WebhooksService(deps.config, deps.temporalClient, endpoints, deliveries, publisher);
    return {
      module: WebhooksModule,
      controllers: [WebhooksController],
      providers: providedByClass(endpoints, deliveries, publisher, webhooks),
      exports: [WebhooksService],
    };
  }
}
