import { Get, Inject, Param, Post } from '@nestjs/common';
import type { Response } from 'express';

import { describeRequirement, grants } from '../../../domain/accounts/roles';
import { FINAL_STATUSES, type CaseRecord } from '../../../domain/cases/case-model';
import type { CaseEventType } from '../../../domain/webhooks/event-types';
import type { Principal } from '../../../infrastructure/accounts/accounts.repository';
import type { AppConfig } from '../../../infrastructure/config/config';
import { requestFailNowUpdate, requestRetryNowUpdate } from '../../../workflows/case.messages';
import { APP_CONFIG } from '../../common/tokens';
import { type CaseType, CasesService, type DecisionForm, FailCaseDto, plain } from '../../cases/cases.module';
import { ApiError } from '../../common/errors';
import { WebhooksService } from '../../webhooks/webhooks.module';
import { checkAsTheApiDoes, formText, refusalDetails } from '../forms';
import { html } from '../views/html';
import { PageContent } from '../layout';
import { doneNotice } from '../views/markup';
import { attentionCard, operatorActionsView } from './attention-views';
import { insuranceCardSection, requestView } from './case-request-views';
import { CaseSection, casePath, SECTION_SEGMENTS, sectionOfPath } from './case-sections';
import {
  caseFacts,
  caseResults,
  decisionFormView,
  deliveriesSection,
  documentsOf,
  documentsSection,
  reviewerSections,
  statusHistory,
} from './case-views';
import { principalOf } from '../console-principal';
import { decisionFormOf, decisionFormsFor, formValues } from './decision-forms';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

/** Fixed sentences for `?done=`: the query names one, it is never shown itself. */
const DONE_NOTICES: Record<string, string> = {
  review: 'Your review decision was recorded.',
  outcome: 'The outcome was recorded.',
  information: 'The information was sent to the program.',
  questionnaire: "Your answers to the payer's questionnaire were saved.",
  feedback: 'Your feedback was saved with the case; it changed nothing of the case.',
  retried: 'The case is calling its connector again; this page shows how it went.',
  failed: 'The case was ended as failed, and the provider is notified.',
};

/** An operator's action on a case waiting out an outage: the API's message and audit action for each. */
const OPERATOR_ACTIONS = {
  retry: { message: requestRetryNowUpdate, auditAction: 'case.retried_by_operator', done: 'retried' },
  fail: { message: requestFailNowUpdate, auditAction: 'case.failed_by_operator', done: 'failed' },
} as const;
type OperatorAction = keyof typeof OPERATOR_ACTIONS;

/** Refusals the person can act on, shown on the case page rather than as an error page. */
const REFUSALS_SHOWN_ON_THE_CASE = new Set(['invalid_state', 'validation_error', 'payload_too_large']);

interface FormAnswer {
  /** A decision's form, or the operator's Fail form. */
  form: DecisionForm | 'fail';
  values: Record<string, string>;
  errors: string[];
}

/**
 * A case's page in each section (its history, facts, results, documents and notifications) and the
 * decisions it takes, sent through `CasesService.decide` exactly as the API sends them, so the same
 * validation, ownership and 409 rules apply.
 */
@ConsolePages()
export class CasePagesController {
  constructor(
    @Inject(CasesService) private readonly cases: CasesService,
    @Inject(WebhooksService) private readonly webhooks: WebhooksService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Any signed-in person of the account reads its cases, as any API key does. Operators, who belong
   * to the platform rather than to a clinic, read any account's case (as they decode any account's
   * payloads in Temporal Web), and the read is audited in the account that owns it.
   */
  @Get(SECTION_SEGMENTS.map((segment) => `${segment}/:id`))
  async show(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    const section = sectionOfPath(page.req.path);
    const principal = principalOf(page.req);
    const target = { object: section.type.object, id };
    const { record, accountId: ownerAccountId } = grants(principal.roles, 'operator')
      ? await this.cases.getForOperator(section.type, id)
      : { record: await this.cases.get(principal, section.type, id), accountId: principal.accountId };
    await page.audit('case.read', target, undefined, ownerAccountId);
    const notice = doneNotice(DONE_NOTICES, page.req.query.done);
    await this.sendCasePage(page, section, record, notice ? { notice } : {}, undefined, 200, ownerAccountId);
  }

  /**
   * The image the worker's reader kept of one page of a case's document, for the case page: the
   * account's people only, inline, never cached, sniffed or active, audited as a download is.
   */
  @Get(SECTION_SEGMENTS.map((segment) => `${segment}/:id/documents/:document_id/pages/:page`))
  async documentPage(
    @Page() page: ConsolePage,
    @Param('id') id: string,
    @Param('document_id') documentId: string,
    @Param('page') pageNumber: string,
  ): Promise<void> {
    const missing = 'This case holds no image of this document page.';
    if (!/^[1-9]\d{0,3}$/.test(pageNumber)) throw ApiError.notFound(missing);
    const read = { caseId: id, documentId, pageNumber: Number(pageNumber) };
    await this.sendDocument(page, read, missing, async (principal, type) => ({
      contentType: 'image/jpeg',
      disposition: 'inline',
      bytes: await this.cases.documentPagePreview(principal, type, id, documentId, read.pageNumber),
    }));
  }

  /**
   * One document of a case, for the account's people (operators run the service and never see a
   * patient's documents), as a download: never cached, never sniffed, never active. Audited as the
   * API's download is; the case page shows the images the reader kept of its pages instead.
   */
  @Get(SECTION_SEGMENTS.map((segment) => `${segment}/:id/documents/:document_id`))
  async document(
    @Page() page: ConsolePage,
    @Param('id') id: string,
    @Param('document_id') documentId: string,
  ): Promise<void> {
    const missing = 'This case holds no document with this id.';
    await this.sendDocument(page, { caseId: id, documentId }, missing, async (principal, type) => {
      const { contentType, bytes } = await this.cases.document(principal, type, id, documentId);
      return { contentType, disposition: 'attachment', bytes };
    });
  }

  /**
   * An operator's Retry now and Fail, declared before `decide`, whose `:decision` would otherwise
   * take these paths.
   */
  @Post(SECTION_SEGMENTS.map((segment) => `${segment}/:id/retry`))
  async retry(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    await this.actAsOperator(page, id, 'retry');
  }

  @Post(SECTION_SEGMENTS.map((segment) => `${segment}/:id/fail`))
  async fail(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    await this.actAsOperator(page, id, 'fail');
  }

  @Post(SECTION_SEGMENTS.map((segment) => `${segment}/:id/:decision`))
  async decide(
    @Page() page: ConsolePage,
    @Param('id') id: string,
    @Param('decision') name: string,
  ): Promise<void> {
    const section = sectionOfPath(page.req.path);
    const decision = section.type.decisions.find((candidate) => candidate.name === name);
    const form = decisionFormOf(section.type.object, name);
    if (!decision || !form) throw ApiError.notFound('This case takes no such decision.');
    const principal = principalOf(page.req);
    if (!grants(principal.roles, decision.role)) {
      throw new ApiError(
        'forbidden',
        `This decision needs the ${describeRequirement(decision.role)} role, which you do not hold.`,
      );
    }
    const record = await this.cases.get(principal, section.type, id);
    const values = formValues(form, page.req.body, record);
    const person = page.req.context.console!.displayName;
    const checked = await checkAsTheApiDoes(decision.body, form.body(values, person, record));
    if (!checked.valid) {
      return this.sendCasePage(
        page,
        section,
        record,
        { notice: { kind: 'error', text: 'The request is invalid; see details.' } },
        { form, values, errors: checked.messages },
        400,
      );
    }
    try {
      await this.cases.decide(principal, section.type, id, decision, plain(checked.value));
    } catch (error) {
      if (!(error instanceof ApiError) || !REFUSALS_SHOWN_ON_THE_CASE.has(error.code)) throw error;
      const kept =
        error.code === 'invalid_state' ? undefined : { form, values, errors: refusalDetails(error) };
      return this.sendCasePage(
        page,
        section,
        await this.cases.get(principal, section.type, id),
        { notice: { kind: 'error', text: error.message } },
        kept,
        error.httpStatus,
      );
    }
    await page.audit(decision.auditAction, { object: section.type.object, id });
    page.seeOther(`${casePath(section, id)}?done=${decision.name}`);
  }

  /**
   * Sent through `CasesService.actForOperator`, as `POST /{type}/{id}/retry` and `/fail` send them,
   * for a case of any account, and audited in the account that owns it.
   */
  private async actAsOperator(page: ConsolePage, id: string, name: OperatorAction): Promise<void> {
    const section = sectionOfPath(page.req.path);
    if (!section.type.waitsOutOutages) throw ApiError.notFound('This case takes no such decision.');
    if (!grants(principalOf(page.req).roles, 'operator')) {
      throw new ApiError(
        'forbidden',
        'Retrying or failing a case needs the "operator" role, which you do not hold.',
      );
    }
    const action = OPERATOR_ACTIONS[name];
    const values = {
      reason: formText(page.req.body, 'reason', 100),
      note: formText(page.req.body, 'note', 10_000),
    };
    const sendRefusal = async (text: string, status: number, errors?: string[]) => {
      const { record, accountId } = await this.cases.getForOperator(section.type, id);
      const kept = errors && { form: 'fail' as const, values, errors };
      await this.sendCasePage(
        page,
        section,
        record,
        { notice: { kind: 'error', text } },
        kept,
        status,
        accountId,
      );
    };
    let payload: object = {};
    if (name === 'fail') {
      const checked = await checkAsTheApiDoes(FailCaseDto, {
        reason: values.reason,
        ...(values.note && { note: values.note }),
      });
      if (!checked.valid) return sendRefusal('The request is invalid; see details.', 400, checked.messages);
      payload = plain(checked.value);
    }
    let ownerAccountId: string;
    try {
      ({ accountId: ownerAccountId } = await this.cases.actForOperator(
        section.type,
        id,
        action.message,
        payload,
      ));
    } catch (error) {
      if (!(error instanceof ApiError) || !REFUSALS_SHOWN_ON_THE_CASE.has(error.code)) throw error;
      return sendRefusal(error.message, error.httpStatus);
    }
    const target = { object: section.type.object, id };
    await page.audit(action.auditAction, target, undefined, ownerAccountId);
    page.seeOther(`${casePath(section, id)}?done=${action.done}`);
  }

  private async sendCasePage(
    page: ConsolePage,
    section: CaseSection,
    record: CaseRecord,
    content: Pick<PageContent, 'notice'>,
    answer?: FormAnswer,
    status = 200,
    ownerAccountId = principalOf(page.req).accountId,
  ): Promise<void> {
    const principal = principalOf(page.req);
    const path = casePath(section, record.id);
    const forms = decisionFormsFor(record).filter((form) => {
      const decision = section.type.decisions.find((candidate) => candidate.name === form.decision);
      return decision && grants(principal.roles, decision.role);
    });
    const operator = grants(principal.roles, 'operator');
    const [deliveries, previewed, disagreements] = await Promise.all([
      this.webhooks.deliveriesOfCase(
        ownerAccountId,
        record.id,
        `${record.object}.updated` as CaseEventType,
        record.status_history.map((change) => change.at),
      ),
      // Operators see which documents a case holds, never their content.
      operator ? new Set<string>() : this.cases.documentsWithPagePreviews(principal, record.id),
      operator ? [] : this.cases.cardDisagreements(principal, record),
    ]);
    const temporalLink = this.temporalWebLink(record.id);
    const operatorActs = operator && section.type.waitsOutOutages && !FINAL_STATUSES.includes(record.status);
    page.send(
      {
        title: `${section.singular} ${record.id}`,
        ...content,
        body: html`<p><a href="/console/${section.segment}">Back to ${section.title.toLowerCase()}</a></p>
          ${
            record.attention
              ? attentionCard(
                  record.attention,
                  operatorActs
                    ? answer?.form === 'fail'
                      ? operatorActionsView(path, page.csrf(), answer.values, answer.errors)
                      : operatorActionsView(path, page.csrf())
                    : '',
                )
              : ''
          }
          ${caseFacts(record)}
          ${
            // Operators run the service: they see a case's state, never the patient's record or documents.
            operator
              ? ''
              : html`${requestView(record)} ${reviewerSections(record)}
                ${insuranceCardSection(record.insurance_card, disagreements)}`
          }
          ${
            // The decisions come after the facts they weigh, so a reviewer reads before deciding.
            forms.map((form) =>
              answer?.form === form
                ? decisionFormView(form, path, page.csrf(), record, answer.values, answer.errors)
                : decisionFormView(form, path, page.csrf(), record),
            )
          }
          ${statusHistory(record)} ${caseResults(record)}
          ${documentsSection(documentsOf(record), record, path, { showsContent: !operator, previewed })}
          ${deliveriesSection(deliveries)}
          ${
            operator && temporalLink
              ? html`<p>
                  <a href="${temporalLink}" rel="noopener noreferrer">Open this case in Temporal Web</a>
                </p>`
              : ''
          }`,
      },
      status,
    );
  }

  /**
   * Bytes of a case's document, or of one of its pages, to the account's people: operators run the
   * service and never see a patient's documents, so for them there is none. Every read is audited as
   * the API's download is, with the page when it is one.
   */
  private async sendDocument(
    page: ConsolePage,
    { caseId, documentId, pageNumber }: { caseId: string; documentId: string; pageNumber?: number },
    missing: string,
    read: (principal: Principal, type: CaseType) => Promise<UntrustedBytes>,
  ): Promise<void> {
    const section = sectionOfPath(page.req.path);
    const principal = principalOf(page.req);
    if (grants(principal.roles, 'operator')) throw ApiError.notFound(missing);
    const bytes = await read(principal, section.type);
    await page.audit(
      'document.read',
      { object: section.type.object, id: caseId },
      pageNumber === undefined ? { document_id: documentId } : { document_id: documentId, page: pageNumber },
    );
    sendUntrusted(page.res, bytes);
  }

  private temporalWebLink(caseId: string): string | undefined {
    const { webUrl, namespace } = this.config.temporal;
    if (!webUrl) return undefined;
    return `${webUrl}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(caseId)}`;
  }
}

/** Bytes from a document, and whether the browser shows them (`inline`) or saves them (`attachment`). */
interface UntrustedBytes {
  contentType: string;
  disposition: 'inline' | 'attachment';
  bytes: Buffer;
}

/** Bytes from a document, never cached, never sniffed into another type, never active if opened. */
function sendUntrusted(res: Response, { contentType, disposition, bytes }: UntrustedBytes): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', disposition);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "default-src 'none'; sandbox; frame-ancestors 'none'");
  res.end(bytes);
}
