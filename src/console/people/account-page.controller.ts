import { Body, Get, Inject, Post, Query } from '@nestjs/common';

import { grants } from '../../../domain/accounts/roles';
import type { ProviderAuthorizationSettings } from '../../../domain/providers/provider-authorization';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../../infrastructure/console/session-policy';
import { RequiresRole } from '../../common/route-access';
import { ProviderAuthorizationsService } from '../../provider-authorizations/provider-authorizations.module';
import { principalOf } from '../console-principal';
import { formField, refusalNotice } from '../forms';
import { card, choice, definitionList, inputField, postForm, submitButton } from '../views';
import { Html, html } from '../views/html';
import { PageNotice } from '../layout';
import { doneNotice } from '../views/markup';
import { ACCOUNT_TWO_STEP_PATH } from './second-factor.controller';
import { ConsolePages } from '../console-pages';
import { ConsolePage, Page } from '../console-page';

const PROVIDER_AUTHORIZATIONS_PATH = '/console/account/provider-authorizations';

const DONE: Record<string, string> = {
  'two-step-on': 'Two-step sign-in is on.',
  'authorizations-saved': "The account's settings of prescriber authorizations were saved.",
};

/**
 * Who is signed in, to which account, with which roles: every signed-in person may see it. Admins
 * also set whether BVs and PAs need their prescriber's signed authorization, per mode.
 */
@ConsolePages('account')
export class AccountPageController {
  constructor(
    @Inject(ProviderAuthorizationsService) private readonly authorizations: ProviderAuthorizationsService,
  ) {}

  @Get()
  async show(@Page() page: ConsolePage, @Query('done') done?: string): Promise<void> {
    await this.sendAccountPage(page, doneNotice(DONE, done));
  }

  @Post('provider-authorizations')
  @RequiresRole('admin')
  async saveAuthorizationSettings(@Page() page: ConsolePage, @Body() body: unknown): Promise<void> {
    const days = Number(formField(body, 'period_days'));
    if (!Number.isInteger(days) || days < 1 || days > 3650) {
      return this.sendAccountPage(
        page,
        refusalNotice(['the period must be a whole number of days from 1 to 3650']),
        400,
      );
    }
    await this.authorizations.updateAccountSettings(principalOf(page.req), {
      require_provider_authorization: {
        test: formField(body, 'require_test') === 'yes',
        live: formField(body, 'require_live') === 'yes',
      },
      provider_authorization_period_days: days,
    });
    await page.audit('account_settings.updated', { object: 'account_settings', id: null });
    page.seeOther('/console/account?done=authorizations-saved');
  }

  private async sendAccountPage(
    page: ConsolePage,
    notice: PageNotice | undefined,
    status = 200,
  ): Promise<void> {
    const session = page.req.context.console!;
    const settings = await this.authorizations.accountSettings(principalOf(page.req));
    const isAdmin = grants(session.roles, 'admin');
    page.send(
      {
        title: 'Your account',
        notice,
        body: html`${card({
          body: definitionList([
            ['Account', session.accountName],
            ['Signed in as', session.displayName],
            ['Roles', session.roles.join(', ')],
            [
              'Two-step sign-in',
              session.totpEnabled
                ? 'On (authenticator app)'
                : html`Off. <a href="${ACCOUNT_TWO_STEP_PATH}">Turn on two-step sign-in</a>`,
            ],
            [
              'Session',
              `Ends after ${SESSION_IDLE_MS / 60_000} minutes without activity, and ${SESSION_ABSOLUTE_MS / 3_600_000} hours after sign-in.`,
            ],
          ]),
        })}
        ${authorizationSettingsCard(settings, isAdmin ? page.csrf() : undefined)}`,
      },
      status,
    );
  }
}

/** Whether BVs and PAs need their prescriber's signed authorization, per mode; a form for admins. */
function authorizationSettingsCard(settings: ProviderAuthorizationSettings, csrf: Html | undefined): Html {
  const required = settings.require_provider_authorization;
  const facts = definitionList([
    ['Test mode', required.test ? 'Required' : 'Not required'],
    ['Live mode', required.live ? 'Required' : 'Not required'],
    ['A signature lasts', `${settings.provider_authorization_period_days} days`],
  ]);
  return card({
    id: 'authorizations-heading',
    heading: "Prescribers' authorizations",
    body: html`<p>
        Where required, a benefit verification or prior authorization is refused unless its prescriber signed
        an authorization of this account that has not lapsed.
      </p>
      ${
        csrf
          ? postForm({
              action: PROVIDER_AUTHORIZATIONS_PATH,
              csrf,
              body: html`${choice({
                id: 'require_test',
                name: 'require_test',
                type: 'checkbox',
                value: 'yes',
                label: 'Require it in test mode',
                checked: required.test,
              })}
              ${choice({
                id: 'require_live',
                name: 'require_live',
                type: 'checkbox',
                value: 'yes',
                label: 'Require it in live mode',
                checked: required.live,
              })}
              ${inputField({
                name: 'period_days',
                label: 'A signature lasts (days)',
                value: String(settings.provider_authorization_period_days),
                attributes: html`inputmode="numeric" required`,
              })}
              ${submitButton({ label: 'Save', kind: 'primary' })}`,
            })
          : facts
      }`,
  });
}
