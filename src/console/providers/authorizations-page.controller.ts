import { Body, Get, Inject, Param, Post, Query } from '@nestjs/common';

import { grants } from '../../../domain/accounts/roles';
import { KEYSET_CURSOR } from '../../../infrastructure/storage/keyset-cursor';
import { ApiError } from '../../common/errors';
import { actorOf } from '../../common/actor';
import {
  CreateProviderAuthorizationDto,
  ProviderAuthorizationsService,
  requestOrigin,
} from '../../provider-authorizations/provider-authorizations.module';
import { ConsolePages } from '../console-pages';
import { principalOf } from '../console-principal';
import { checkAsTheApiDoes, formField, refusalNotice } from '../forms';
import { PageNotice } from '../layout';
import { doneNotice } from '../views/markup';
import {
  AUTHORIZATIONS_PATH,
  AuthorizationForm,
  authorizationsView,
  EMPTY_AUTHORIZATION_FORM,
} from './authorizations-views';
import { ConsolePage, Page } from '../console-page';

const PAGE_SIZE = 25;
const ID = /^pvauth_[0-9a-z]{26}$/;

const DONE = {
  started: 'The signing link was sent. The authorization shows signed once the prescriber signs it.',
  revoked: 'The authorization was revoked.',
};

/** Prescribers' authorizations of the account in the mode the person works in: listed, started and revoked. */
@ConsolePages('providers', 'provider')
export class ProviderAuthorizationsPageController {
  constructor(
    @Inject(ProviderAuthorizationsService) private readonly authorizations: ProviderAuthorizationsService,
  ) {}

  @Get()
  async show(
    @Page() page: ConsolePage,
    @Query('done') done?: string,
    @Query('cursor') cursor?: string,
  ): Promise<void> {
    // A cursor of another shape is a link made by hand: the newest page answers it.
    const after = typeof cursor === 'string' && KEYSET_CURSOR.test(cursor) ? cursor : undefined;
    await this.sendList(page, { notice: doneNotice(DONE, done), cursor: after });
  }

  @Post()
  async start(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const form: AuthorizationForm = {
      npi: formField(body, 'npi') ?? '',
      first_name: formField(body, 'first_name') ?? '',
      last_name: formField(body, 'last_name') ?? '',
      email: formField(body, 'email') ?? '',
      phone: formField(body, 'phone') ?? '',
      practice: formField(body, 'practice') ?? '',
    };
    const fields = Object.fromEntries(Object.entries(form).filter(([, value]) => value.trim() !== ''));
    const checked = await checkAsTheApiDoes(CreateProviderAuthorizationDto, fields);
    if (!checked.valid) return this.sendList(page, { form, notice: refusalNotice(checked.messages) }, 400);
    try {
      await this.authorizations.create(principalOf(page.req), checked.value, actorOf(page.req.context), {
        requestId: page.req.context.requestId,
        clientAddress: requestOrigin(page.req).address,
      });
    } catch (error) {
      // What the API answers a caller with (a registry refusal, a duplicate, the registry down) the page says.
      const refusal =
        error instanceof ApiError && (error.httpStatus < 500 || error.code === 'registry_unavailable');
      if (!refusal) throw error;
      return this.sendList(page, { form, notice: refusalNotice([explain(error)]) }, error.httpStatus);
    }
    page.seeOther(`${AUTHORIZATIONS_PATH}?done=started`);
  }

  @Post(':id/revoke')
  async revoke(@Page() page: ConsolePage, @Param('id') id: string): Promise<void> {
    if (!ID.test(id))
      throw ApiError.notFound('No provider authorization with this id exists in your account and mode.');
    try {
      await this.authorizations.revoke(
        principalOf(page.req),
        id,
        actorOf(page.req.context),
        page.req.context.requestId,
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'invalid_state') throw error;
      return this.sendList(page, { notice: { kind: 'error', text: error.message } }, 409);
    }
    page.seeOther(`${AUTHORIZATIONS_PATH}?done=revoked`);
  }

  private async sendList(
    page: ConsolePage,
    shown: { form?: AuthorizationForm; notice?: PageNotice; cursor?: string },
    status = 200,
  ): Promise<void> {
    const principal = principalOf(page.req);
    const list = await this.authorizations.list(principal, { limit: PAGE_SIZE, cursor: shown.cursor });
    const required = (await this.authorizations.accountSettings(principal)).require_provider_authorization;
    const signedFromRequesterNetwork = await this.authorizations.signedFromRequesterNetwork(
      principal,
      list.data.map((authorization) => authorization.id),
    );
    page.send(
      {
        title: 'Providers',
        notice: shown.notice,
        body: authorizationsView({
          authorizations: list.data,
          cursor: shown.cursor,
          nextCursor: list.next_cursor,
          form: shown.form ?? EMPTY_AUTHORIZATION_FORM,
          csrf: page.csrf(),
          canReadOutbox: grants(principal.roles, 'admin'),
          enforced: principal.livemode ? required.live : required.test,
          signedFromRequesterNetwork,
        }),
      },
      status,
    );
  }
}

/** The API's refusal in words for the page: its message and, for each field, what is wrong with it. */
function explain(error: ApiError): string {
  const details = error.details.map((detail) => `${detail.field.replace('_', ' ')} ${detail.issue}`);
  return details.length > 0 ? details.join('; ') : error.message.replace(/\.$/, '');
}
