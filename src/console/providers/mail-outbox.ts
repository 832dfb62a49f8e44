import {
  MailOutboxRepository,
  OutboxMessage,
  OutboxPage,
} from '../../../infrastructure/mail/mail-outbox.repository';
import { KEYSET_CURSOR, keysetPosition } from '../../../infrastructure/storage/keyset-cursor';

const PAGE_SIZE = 25;
const MESSAGE_ID = /^[a-z]+_[0-9a-z]{26}$/;

/**
 * The outbox as the console reads it. Live-mode mail is sent, not kept, except by a local install,
 * which has no mail server and keeps every mode's mail here.
 */
export class MailOutbox {
  constructor(
    private readonly messages: MailOutboxRepository,
    readonly keepsLiveMail: boolean,
  ) {}

  /** One page of a mode's mail, newest first; a cursor of another shape (made by hand) reads the newest. */
  async page(accountId: string, livemode: boolean, cursor?: string): Promise<OutboxPage> {
    if (livemode && !this.keepsLiveMail) return { messages: [], nextCursor: null };
    const after = cursor !== undefined && KEYSET_CURSOR.test(cursor) ? keysetPosition(cursor) : undefined;
    return this.messages.list(accountId, { livemode, limit: PAGE_SIZE, ...(after && { after }) });
  }

  /** One of the account's messages; undefined for any other id, another account's included. */
  async message(accountId: string, id: string): Promise<OutboxMessage | undefined> {
    return MESSAGE_ID.test(id) ? this.messages.get(accountId, id) : undefined;
  }
}
