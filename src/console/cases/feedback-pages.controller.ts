import { randomUUID } from 'node:crypto';

import { Body, Get, Inject, Param, Post, Query } from '@nestjs/common';
import type { Request } from 'express';

import { describeRequirement, grants } from '../../../domain/accounts/roles';
import { FEEDBACK_ROLE } from '../../../domain/cases/case-feedback';
import type { PriorAuthorizationCase } from '../../../domain/cases/prior-authorization';
import { DAY_MS } from '../../../domain/durations';
import {
  CaseFeedbackService,
  CASE_TYPES,
  CasesService,
  GiveFeedbackDto,
  plain,
} from '../../cases/cases.module';
import { ApiError } from '../../common/errors';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { checkAsTheApiDoes, formChoices, formField, formText, refusalMessages } from '../forms';
import { html } from '../views';
import { casePath, sectionOfObject } from './case-sections';
import {
  criterionFieldNames,
  emptyFeedbackForm,
  FEEDBACK_KEY_FIELD,
  type FeedbackFormValues,
  feedbackFormView,
  feedbackReportView,
} from './feedback-views';
import { ConsolePage, Page } from '../console-page';

const PRIOR_AUTHORIZATION = CASE_TYPES.find((type) => type.object === 'prior_authorization')!;

/** Refusals the person can act on, shown with the form rather than as an error page. */
const REFUSALS_SHOWN_WITH_THE_FORM = new Set(['validation_error', 'invalid_state']);

/**
 * The feedback form of a prior authorization, given through `CaseFeedbackService` exactly as
 * `POST /prior-authorization/{id}/feedback` gives it, so the same checks, ownership and cap apply.
 * Served before the case pages' `/:id/:decision`, which would otherwise take its POST.
 */
@ConsolePages('prior-authorizations')
export class FeedbackPagesController {
  constructor(
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(CaseFeedbackService) private readonly feedback: CaseFeedbackService,
  ) {}

  @Get(':id/feedback')
  async show(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    const record = await this.caseForFeedback(page.req, id);
    this.sendFormPage(page, record, emptyFeedbackForm());
  }

  @Post(':id/feedback')
  async give(@Page() page: ConsolePage, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    const record = await this.caseForFeedback(page.req, id);
    const values = formValuesOf(body, record);
    const checked = await checkAsTheApiDoes(GiveFeedbackDto, bodyOf(values));
    if (!checked.valid) return this.sendFormPage(page, record, values, checked.messages, 400);
    let created: boolean;
    try {
      // Bound to the case too, so a key sent with another case's form finds nothing of this one.
      const idempotencyId = `console-feedback:${record.id}:${values.key}`;
      ({ created } = await this.feedback.give(
        principalOf(page.req),
        id,
        plain(checked.value),
        idempotencyId,
      ));
    } catch (error) {
      if (!(error instanceof ApiError) || !REFUSALS_SHOWN_WITH_THE_FORM.has(error.code)) throw error;
      return this.sendFormPage(page, record, values, refusalMessages(error), error.httpStatus);
    }
    // A second send of the same form stored nothing, so it is audited once.
    if (created) await page.audit('case.feedback_recorded', { object: 'prior_authorization', id });
    // `done=feedback` names the case page's sentence for it; the anchor brings the history into view.
    page.seeOther(`${casePath(sectionOfObject('prior_authorization'), id)}?done=feedback#feedback-heading`);
  }

  /** The account's own case, for a person who may give feedback (operators run the service, they give none). */
  private async caseForFeedback(req: Request, id: string): Promise<PriorAuthorizationCase> {
    const principal = principalOf(req);
    if (!grants(principal.roles, FEEDBACK_ROLE) || grants(principal.roles, 'operator')) {
      throw new ApiError(
        'forbidden',
        `Giving feedback needs the ${describeRequirement(FEEDBACK_ROLE)} role, which you do not hold.`,
      );
    }
    return (await this.cases.get(principal, PRIOR_AUTHORIZATION, id)) as PriorAuthorizationCase;
  }

  private sendFormPage(
    page: ConsolePage,
    record: PriorAuthorizationCase,
    values: FeedbackFormValues,
    errors: string[] = [],
    status = 200,
  ): void {
    const path = casePath(sectionOfObject('prior_authorization'), record.id);
    page.send(
      {
        title: `Feedback on prior authorization ${record.id}`,
        ...(errors.length > 0 && {
          notice: { kind: 'error' as const, text: 'Nothing was saved; see below.' },
        }),
        body: html`<p><a href="${path}">Back to the case</a></p>
          ${feedbackFormView(record, page.csrf(), values, errors)}`,
      },
      status,
    );
  }
}

/** The form as sent, each criterion's expected answer under the id its row named. */
function formValuesOf(body: unknown, record: PriorAuthorizationCase): FeedbackFormValues {
  const expected: Record<string, string> = {};
  record.criteria.forEach((_criterion, index) => {
    const names = criterionFieldNames(index);
    const id = formField(body, names.id);
    const answer = formField(body, names.expected);
    if (id && answer) expected[id] = answer;
  });
  const key = formField(body, FEEDBACK_KEY_FIELD) ?? '';
  return {
    // A form sent without a well-made key (tampered with, or shown before forms had one) gets a new one.
    key: UUID.test(key) ? key : randomUUID(),
    rating: formField(body, 'rating') ?? '',
    parts: formChoices(body, 'parts'),
    comment: formField(body, 'comment') ?? '',
    expected,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The API's body from the form: empty fields left out, as an API client would leave them. */
function bodyOf(values: FeedbackFormValues): object {
  const criteria = Object.entries(values.expected).map(([id, expected_answer]) => ({ id, expected_answer }));
  return {
    ...(values.rating && { rating: values.rating }),
    parts: values.parts,
    ...(values.comment.trim() && { comment: values.comment }),
    ...(criteria.length > 0 && { criteria }),
  };
}

/** The report's default period: the last 30 days, today included. */
const DEFAULT_REPORT_DAYS = 30;

/** The account's feedback by drug and criterion, for its admins, in the mode the console shows. */
@ConsolePages('feedback', 'admin')
export class FeedbackReportPageController {
  constructor(@Inject(CaseFeedbackService) private readonly feedback: CaseFeedbackService) {}

  @Get()
  async show(@Page() page: ConsolePage, @Query() query: Record<string, unknown>): Promise<void> {
    const today = new Date().toISOString().slice(0, 10);
    const period = {
      to: calendarDate(formText(query, 'to', 10)) ?? today,
      from: calendarDate(formText(query, 'from', 10)) ?? '',
    };
    period.from ||= new Date(Date.parse(period.to) - (DEFAULT_REPORT_DAYS - 1) * DAY_MS)
      .toISOString()
      .slice(0, 10);
    const report = await this.feedback.report(principalOf(page.req), {
      from: `${period.from}T00:00:00Z`,
      // The day `to` names is included: the period ends at the next midnight.
      to: new Date(Date.parse(period.to) + DAY_MS).toISOString(),
    });
    page.send({
      title: 'Feedback',
      body: feedbackReportView(report, period),
    });
  }
}

/** A day as YYYY-MM-DD that the calendar holds: `Date.parse` takes 2026-02-31 as 3 March, so it must read back the same. */
function calendarDate(value: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value ? value : undefined;
}
