import { Body, Get, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';

import { FEEDBACK_ROLE } from '../../../domain/cases/case-feedback';
import type { Principal } from '../../../infrastructure/accounts/accounts.repository';
import { ApiController } from '../../common/api-controller';
import { Audited } from '../../common/audited.decorator';
import { success } from '../../common/envelope';
import { CurrentPrincipal, RequiresRole } from '../../common/route-access';
import { Answers } from '../../contract/answers';
import {
  CurrentIdempotentAttempt,
  Idempotent,
  type IdempotentAttempt,
} from '../../idempotency/idempotency.module';
import { plain } from '../case-request-mapping';
import { FeedbackReportQueryDto, GiveFeedbackDto } from './case-feedback.dto';
import { CaseFeedbackService } from './case-feedback.service';

/**
 * Feedback on a prior authorization, beside its case type's routes: providers' integrations and the
 * clinic's reviewers give it; it never reaches the case's workflow.
 */
@ApiController('prior-authorization')
export class PriorAuthorizationFeedbackController {
  constructor(@Inject(CaseFeedbackService) private readonly feedback: CaseFeedbackService) {}

  @Post(':id/feedback')
  @RequiresRole(FEEDBACK_ROLE)
  // Resumable: the feedback is stored under the key's bound id, so a retry never stores it twice.
  @Idempotent({ resumable: true })
  @Audited('case.feedback_recorded', 'prior_authorization')
  @ApiOperation({
    summary: 'Give feedback on a prior authorization, in any status; the case itself never changes',
    description:
      'Answers 201 with the stored feedback, which the case then lists as `feedback[]`, oldest first. ' +
      '`parts` must name at least one part unless the rating is `correct`; each `criteria[].id` must be a ' +
      'criterion of the case (400 `validation_error` naming `criteria[i].id`). A case holds at most 100 ' +
      'feedback; the next is answered 409 `invalid_state`. The comment and expected answers are stored ' +
      'encrypted and are never in the audit trail (`case.feedback_recorded`) or the report.',
  })
  @Answers('PriorAuthorizationFeedback')
  async give(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: GiveFeedbackDto,
    @CurrentIdempotentAttempt() attempt?: IdempotentAttempt,
  ) {
    return success((await this.feedback.give(principal, id, plain(body), attempt?.boundId)).feedback);
  }
}

/** The admin report of the account's feedback, by drug and criterion (no PHI: counts, drugs and criteria). */
@ApiController('prior-authorization-feedback', { role: 'admin', tag: 'prior authorization' })
export class PriorAuthorizationFeedbackReportController {
  constructor(@Inject(CaseFeedbackService) private readonly feedback: CaseFeedbackService) {}

  @Get('report')
  @ApiOperation({
    summary: "Report the account's feedback on prior authorizations by drug and criterion, over a period",
    description:
      'In the mode of the key, feedback given in [from, to) (the last 30 days by default, at most 366): per ' +
      'drug (by NDC, else by name as the request gave it) the feedback count, the ratings and the parts named, ' +
      'and per criterion how often feedback named it and how often it expected another answer than the case held.',
  })
  @Answers('PriorAuthorizationFeedbackReport')
  async report(@CurrentPrincipal() principal: Principal, @Query() query: FeedbackReportQueryDto) {
    return success(await this.feedback.report(principal, query));
  }
}
