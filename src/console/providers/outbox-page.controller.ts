import { Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { KEYSET_CURSOR } from '../../../infrastructure/storage/keyset-cursor';
import { ApiError } from '../../common/errors';
import { consoleLivemode } from '../console-mode';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { sendPage } from '../layout';
import { MailOutbox } from './mail-outbox';
import { OUTBOX_PATH, outboxListView, outboxMessageView } from './outbox-views';

/**
 * The account's outbox: the mail test mode sent, signing links included, for the account's admins
 * only (a signing link lets whoever holds it sign in the prescriber's name, even in test mode).
 */
@ConsolePages('providers/outbox', 'admin')
export class MailOutboxPageController {
  constructor(@Inject(MailOutbox) private readonly outbox: MailOutbox) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query('cursor') cursor?: string): Promise<void> {
    const livemode = consoleLivemode(req);
    const shown = typeof cursor === 'string' && KEYSET_CURSOR.test(cursor) ? cursor : undefined;
    const page = await this.outbox.page(principalOf(req).accountId, livemode, shown);
    sendPage(req, res, {
      title: 'Outbox',
      body: outboxListView({
        livemode,
        keepsLiveMail: this.outbox.keepsLiveMail,
        messages: page.messages,
        ...(shown && { cursor: shown }),
        nextCursor: page.nextCursor,
      }),
    });
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const message = await this.outbox.message(principalOf(req).accountId, id);
    if (!message) throw ApiError.notFound(`There is no such message in your outbox; see ${OUTBOX_PATH}.`);
    sendPage(req, res, { title: `Outbox: ${message.subject}`, body: outboxMessageView(message) });
  }
}
