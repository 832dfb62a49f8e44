import { createHash } from 'node:crypto';

import { Body, Get, Inject, Param, Post } from '@nestjs/common';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';

import { INVALID_STATE } from '../../../domain/failures';
import { authorizationText, typedNameMatches } from '../../../domain/providers/provider-authorization';
import { ApiError } from '../../common/errors';
import { PublicRoute } from '../../common/route-access';
import {
  type LinkPurpose,
  ProviderAuthorizationsService,
  requestOrigin,
  type ScopedAuthorization,
} from '../../provider-authorizations/provider-authorizations.module';
import { ConsolePages } from '../console-pages';
import { failedChecks, failedChecksNotice, formField, formText } from '../forms';
import {
  closedLinkView,
  revokedView,
  revokeView,
  signedView,
  SHOWN_TEXT_FIELD,
  signingView,
  TYPED_NAME_MAX_LENGTH,
} from './signing-page-views';
import { ConsolePage, Page } from '../console-page';

/**
 * The pages a prescriber reaches from their mail: sign a pending authorization, or revoke a signed
 * one. They are console pages (its CSP, layout and pre-session CSRF token) open to anyone holding the
 * link, which is the only credential: a link that opens nothing, for whatever reason, answers one
 * page, so it tells nothing about any account. Tokens are never logged.
 */
@ConsolePages('provider-authorization')
export class SigningPageController {
  constructor(
    @Inject(ProviderAuthorizationsService) private readonly service: ProviderAuthorizationsService,
  ) {}

  @Get('sign/:token')
  @PublicRoute()
  async showSigning(@Page() page: ConsolePage, @Param('token') token: string): Promise<void> {
    const found = await this.opened(token, 'sign');
    if (!found) return sendClosed(page);
    sendSigning(page, found, shownText(found), '');
  }

  @Post('sign/:token')
  @PublicRoute()
  async sign(@Page() page: ConsolePage, @Param('token') token: string, @Body() body: unknown): Promise<void> {
    const found = await this.opened(token, 'sign');
    if (!found) return sendClosed(page);
    const { authorization } = found;
    const typedName = formText(body, 'typed_name', TYPED_NAME_MAX_LENGTH);
    // The signature records the text the prescriber was shown: where the page they read showed another
    // (its account renamed, or the wording changed by a deploy, since it was opened), they read it again.
    const text = shownText(found);
    if (formText(body, SHOWN_TEXT_FIELD, 64) !== text.sha256) {
      return sendSigning(page, found, text, typedName, [
        'The authorization’s text changed since this page was opened. Read it again, then sign.',
      ]);
    }
    const errors = failedChecks([
      typedNameMatches(typedName, authorization.first_name, authorization.last_name)
        ? undefined
        : `Type your full name as the authorization names you: ${authorization.first_name} ${authorization.last_name}.`,
      formField(body, 'attest') === 'yes' ? undefined : 'Tick the box to confirm you agree.',
    ]);
    if (errors.length > 0) return sendSigning(page, found, text, typedName, errors);
    const origin = requestOrigin(page.req);
    const signature = {
      typed_name: typedName,
      client_address: origin.address,
      user_agent: origin.userAgent,
      text_sha256: text.sha256,
    };
    const signed = await refusedAsClosed(() =>
      this.service.sign(found, signature, page.req.context.requestId),
    );
    if (!signed) return sendClosed(page);
    await this.service.useLink(token);
    page.send({
      title: 'Authorization signed',
      body: signedView(found.accountName, signed.expires_at!),
    });
  }

  @Get('revoke/:token')
  @PublicRoute()
  async showRevoke(@Page() page: ConsolePage, @Param('token') token: string): Promise<void> {
    const found = await this.opened(token, 'revoke');
    if (!found) return sendClosed(page);
    page.send({
      title: 'Revoke your authorization',
      body: revokeView({
        accountName: found.accountName,
        expiresAt: found.authorization.expires_at!,
        csrf: page.csrf(),
      }),
    });
  }

  @Post('revoke/:token')
  @PublicRoute()
  async revoke(@Page() page: ConsolePage, @Param('token') token: string): Promise<void> {
    const found = await this.opened(token, 'revoke');
    if (!found) return sendClosed(page);
    const { authorization } = found;
    const revoked = await refusedAsClosed(() =>
      this.service.revokeById(
        authorization,
        { type: 'prescriber', id: authorization.id },
        page.req.context.requestId,
      ),
    );
    if (!revoked) return sendClosed(page);
    await this.service.useLink(token);
    page.send({ title: 'Authorization revoked', body: revokedView(found.accountName) });
  }

  /** The authorization a live link of this purpose opens, while it is in the status the purpose needs. */
  private opened(token: string, purpose: LinkPurpose): Promise<ScopedAuthorization | undefined> {
    return this.service.openLink(token, purpose);
  }
}

interface ShownText {
  paragraphs: string[];
  /** What a signature records of the text: the page carries it, so a sign sees what was shown. */
  sha256: string;
}

/** The authorization's text as its page shows it, built once a request. */
function shownText({ accountName, authorization, periodDays }: ScopedAuthorization): ShownText {
  const paragraphs = authorizationText({
    accountName,
    firstName: authorization.first_name,
    lastName: authorization.last_name,
    npi: authorization.npi,
    periodDays,
  });
  return { paragraphs, sha256: createHash('sha256').update(paragraphs.join('\n')).digest('hex') };
}

function sendSigning(
  page: ConsolePage,
  found: ScopedAuthorization,
  text: ShownText,
  typedName: string,
  errors: string[] = [],
) {
  page.send(
    {
      title: 'Authorize a clinic to act for you',
      notice: failedChecksNotice(errors),
      body: signingView({
        accountName: found.accountName,
        paragraphs: text.paragraphs,
        textSha256: text.sha256,
        typedName,
        csrf: page.csrf(),
      }),
    },
    errors.length > 0 ? 400 : 200,
  );
}

function sendClosed(page: ConsolePage): void {
  page.send({ title: 'Link no longer valid', body: closedLinkView() }, 410);
}

/** The workflow's refusal (the authorization lapsed or changed a moment ago) shows the closed-link page. */
async function refusedAsClosed<T>(act: () => Promise<T>): Promise<T | undefined> {
  try {
    return await act();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_state') return undefined;
    const cause = error instanceof WorkflowUpdateFailedError ? error.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type === INVALID_STATE) return undefined;
    throw error;
  }
}
