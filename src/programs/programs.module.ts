import { Module } from '@nestjs/common';

import { SupportProgramsController } from './support-programs.controller';

/** The support programs patients can be enrolled in, as the catalog ships them. */
@Module({ controllers: [SupportProgramsController] })
export class ProgramsModule {}
