import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import type { Database } from '../../infrastructure/storage/database';
import { oneServiceModule } from '../common/feature-modules';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

/** `GET /status`: whether the API, the database, Temporal and the workers answer. */
@Module({})
export class StatusModule {
  static forRoot(deps: { config: AppConfig; db: Database; temporalClient: Client }): DynamicModule {
    const status = new StatusService(deps.config.temporal, deps.db, deps.temporalClient);
    return oneServiceModule(StatusModule, StatusController, status);
  }
}
