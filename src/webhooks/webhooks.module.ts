import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { WebhookDeliveriesRepository } from '../../infrastructure/webhooks/webhook-deliveries.repository';
import { WebhookEndpointsRepository } from '../../infrastructure/webhooks/webhook-endpoints.repository';
import { WebhookPublisher } from '../../infrastructure/webhooks/webhook-publisher';
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
    const deliveries = new WebhookDeliveriesRepository(deps.db, deps.secrets);
    return {
      module: WebhooksModule,
      controllers: [WebhooksController],
      providers: [
        {
          provide: WebhookEndpointsRepository,
          useValue: new WebhookEndpointsRepository(deps.db, deps.secrets),
        },
        { provide: WebhookDeliveriesRepository, useValue: deliveries },
        {
          provide: WebhookPublisher,
          useValue: new WebhookPublisher(deliveries, deps.temporalClient, {
            taskQueue: deps.config.temporal.taskQueue,
            webhooks: deps.config.webhooks,
          }),
        },
        WebhooksService,
      ],
      exports: [WebhooksService],
    };
  }
}
