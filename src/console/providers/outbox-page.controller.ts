import { Get, Inject, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

import { MailOutboxRepository } from '../../../infrastructure/mail/mail-outbox.repository';
import { KEYSET_CURSOR, keysetPosition } from '../../../infrastructure/storage/keyset-cursor';
import { ApiError } from '../../common/errors';
import { consoleLivemode } from '../console-mode';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { sendPage } from '../layout';
import { OUTBOX_PATH, outboxListView, outboxMessageView } from './outbox-views';

/** Whether this install keeps live-mode mail in the outbox too: a local one, which sends no mail. */
export const OUTBOX_KEEPS_LIVE_MAIL = Symbol('OutboxKeepsLiveMail');

const PAGE_SIZE = 25;
const MESSAGE_ID = /^[a-z]+_[0-9a-z]{26}$/;

/**
 * The account's outbox: the mail test mode sent, signing links included, for the account's admins
 * only (a signing link lets whoever holds it sign in the prescriber's name, even in test mode).
 */
@ConsolePages('providers/outbox', 'admin')
export class MailOutboxPageController {
  constructor(
    @Inject(MailOutboxRepository) private readonly outbox: MailOutboxRepository,
    @Inject(OUTBOX_KEEPS_LIVE_MAIL) private readonly keepsLiveMail: boolean,
  ) {}

  @Get()
  async list(@Req() req: Request, @Res() res: Response, @Query('cursor') cursor?: string): Promise<void> {
    const livemode = consoleLivemode(req);
    // A cursor of another shape is a link made by hand: the newest page answers it.
    const after = typeof cursor === 'string' && KEYSET_CURSOR.test(cursor) ? cursor : undefined;
    const page =
      livemode && !this.keepsLiveMail
        ? { messages: [], nextCursor: null }
        : await this.outbox.list(principalOf(req).accountId, {
            livemode,
            limit: PAGE_SIZE,
            ...(after && { after: keysetPosition(after) }),
          });
    sendPage(req, res, {
      title: 'Outbox',
      body: outboxListView({
        livemode,
        keepsLiveMail: this.keepsLiveMail,
        messages: page.messages,
        ...(after && { cursor: after }),
        nextCursor: page.nextCursor,
      }),
    });
  }

  @Get(':id')
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const message = MESSAGE_ID.test(id) ? await this.outbox.get(principalOf(req).accountId, id) : undefined;
    if (!message) throw ApiError.notFound(`There is no such message in your outbox; see ${OUTBOX_PATH}.`);
    sendPage(req, res, { title: `Outbox: ${message.subject}`, body: outboxMessageView(message) });
  }
}
