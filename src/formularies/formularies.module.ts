import { DynamicModule, Module } from '@nestjs/common';

import { FormulariesRepository } from '../../infrastructure/formularies/formularies.repository';
import type { Database } from '../../infrastructure/storage/database';
import { FormulariesController } from './formularies.controller';

/** The formularies accounts load for live benefit verifications (docs/formularies.md). */
@Module({})
export class FormulariesModule {
  static forRoot(deps: { db: Database }): DynamicModule {
    return {
      module: FormulariesModule,
      controllers: [FormulariesController],
      providers: [{ provide: FormulariesRepository, useValue: new FormulariesRepository(deps.db) }],
      exports: [FormulariesRepository],
    };
  }
}
