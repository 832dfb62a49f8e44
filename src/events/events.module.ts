import { DynamicModule, Module } from '@nestjs/common';

import type { AppConfig } from '../../infrastructure/config/config';
import type { SecretBox } from '../../infrastructure/crypto/aes-gcm';
import type { Database } from '../../infrastructure/storage/database';
import { EventsRepository } from '../../infrastructure/webhooks/events.repository';
import { ListCursors } from '../common/list-cursor';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';

/** The events API: what was announced to the account's webhooks in the last 30 days. */
@Module({})
export class EventsModule {
  static forRoot(deps: { config: AppConfig; db: Database; secrets: SecretBox }): DynamicModule {
    return {
      module: EventsModule,
      controllers: [EventsController],
      providers: [
        {
          provide: EventsService,
          useValue: new EventsService(
            new EventsRepository(deps.db, deps.secrets),
            new ListCursors(deps.config.cases.patientRefKey!),
          ),
        },
      ],
    };
  }
}
