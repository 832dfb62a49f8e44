import { Get, Inject } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import { ApiController } from '../common/api-controller';
import { success } from '../common/envelope';
import { Answers } from '../contract/answers';
import { StatusService } from './status.service';

@ApiController('status')
export class StatusController {
  constructor(@Inject(StatusService) private readonly statusService: StatusService) {}

  @Get()
  @ApiOperation({ summary: 'Operational check of the API, the database, Temporal and the workers' })
  @Answers('ServiceStatus')
  async status() {
    return success(await this.statusService.current());
  }
}
