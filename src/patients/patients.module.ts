import { DynamicModule, Module } from '@nestjs/common';
import type { Client } from '@temporalio/client';

import type { AppConfig } from '../../infrastructure/config/config';
import { oneServiceModule } from '../common/feature-modules';
import { PatientErasureController } from './patient-erasure.controller';
import { PatientErasureService } from './patient-erasure.service';

/** Patient-level requests that span cases: erasure (docs/operations.md). */
@Module({})
export class PatientsModule {
  static forRoot(deps: { config: AppConfig; temporalClient: Client }): DynamicModule {
    const erasure = new PatientErasureService(deps.temporalClient, deps.config);
    return oneServiceModule(PatientsModule, PatientErasureController, erasure);
  }
}
