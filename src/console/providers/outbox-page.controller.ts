import { Get, Inject, Param, Query } from '@nestjs/common';

import { KEYSET_CURSOR } from '../../../infrastructure/storage/keyset-cursor';
import { ApiError } from '../../common/errors';
import { consoleLivemode } from '../console-mode';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { MailOutbox } from './mail-outbox';
import { OUTBOX_PATH, outboxListView, outboxMessageView } from './outbox-views';
import { ConsolePage, Page } from '../console-page';

/**
 * The account's outbox: the mail test mode sent, signing links included, for the account's admins
 * only (a signing link lets whoever holds it sign in the prescriber's name, even in test mode).
 */
@ConsolePages('providers/outbox', 'admin')
export class MailOutboxPageController {
  constructor(@Inject(MailOutbox) private readonly outbox: MailOutbox) {}

  @Get()
  async list(@Page() page: ConsolePage, @Query('cursor') cursor?: string): Promise<void> {
    const livemode = consoleLivemode(page.req);
    const shown = typeof cursor === 'string' && KEYSET_CURSOR.test(cursor) ? cursor : undefined;
    const listed = await this.outbox.page(principalOf(page.req).accountId, livemode, shown);
    page.send({
      title: 'Outbox',
      body: outboxListView({
        livemode,
        keepsLiveMail: this.outbox.keepsLiveMail,
        messages: listed.messages,
        ...(shown && { cursor: shown }),
        nextCursor: listed.nextCursor,
      }),
    });
  }

  @Get(':id')
  async show(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    const message = await this.outbox.message(principalOf(page.req).accountId, id);
    if (!message) throw ApiError.notFound(`There is no such message in your outbox; see ${OUTBOX_PATH}.`);
    page.send({ title: `Outbox: ${message.subject}`, body: outboxMessageView(message) });
  }
}
