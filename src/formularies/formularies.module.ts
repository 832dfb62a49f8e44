import { DynamicModule, Module } from '@nestjs/common';

import { FormulariesRepository } from '../../infrastructure/formularies/formularies.repository';
import type { Database } from '../../infrastructure/storage/database';
import { oneServiceModule } from '../common/feature-modules';
import { FormulariesController } from './formularies.controller';
import { FormulariesService } from './formularies.service';

// The edge reads a formulary upload's CSV body before JSON parsing would refuse it.
export { formularyUploadBody, isFormularyCsv } from './formulary-upload';

/** The formularies accounts load for live benefit verifications (docs/formularies.md). */
@Module({})
export class FormulariesModule {
  static forRoot(deps: { db: Database }): DynamicModule {
    const formularies = new FormulariesService(new FormulariesRepository(deps.db));
    return oneServiceModule(FormulariesModule, FormulariesController, formularies);
  }
}
