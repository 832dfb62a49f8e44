import { DynamicModule, Module } from '@nestjs/common';

import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { EventsRepository } from '../../infrastructure/webhooks/events.repository';
import { oneServiceModule } from '../common/feature-modules';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

/** The events API: what was announced to the account's webhooks in the last 30 days. */
@Module({})
export class EventsModule {
  static forRoot(deps: { db: Database; secrets: SecretBox }): DynamicModule {
    const events = new EventsService(new EventsRepository(deps.db, deps.secrets));
    return oneServiceModule(EventsModule, EventsController, events);
  }
}
