import { Module } from '@nestjs/common';

import { CodecController } from './codec.controller';

/** The remote codec Temporal Web and the CLI call to show sealed payloads; the audit trail records each use. */
@Module({ controllers: [CodecController] })
export class CodecModule {}
