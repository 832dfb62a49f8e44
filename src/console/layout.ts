import type { Request, Response } from 'express';

import { grants, Role } from '../../domain/accounts/roles';
import { ContextualRequest } from '../common/request-context';
import { csrfTokenFor, CSRF_FIELD } from './console-edge';
import { consoleLivemode, CONSOLE_MODE_PATH } from './console-mode';
import { Html, html } from './views/html';
import { notice } from './views/notice';
import type { PageNotice } from './views/notice';
import { CASE_SECTIONS } from './cases/case-sections';

interface NavigationItem {
  href: string;
  label: string;
  role: Role;
}

/** The console's sections, each shown to the people whose roles open it. */
export const NAVIGATION: readonly NavigationItem[] = [
  { href: '/console/review-queue', label: 'Review queue', role: 'reviewer' },
  // One section per case type, as the type declares it.
  ...CASE_SECTIONS.map(({ segment, title }): NavigationItem => ({
    href: `/console/${segment}`,
    label: title,
    role: 'provider',
  })),
  { href: '/console/providers', label: 'Providers', role: 'provider' },
  { href: '/console/feedback', label: 'Feedback', role: 'admin' },
  { href: '/console/api-keys', label: 'API keys', role: 'admin' },
  { href: '/console/webhooks', label: 'Webhooks', role: 'admin' },
  { href: '/console/connectors', label: 'Connectors', role: 'admin' },
  { href: '/console/people', label: 'People', role: 'admin' },
  { href: '/console/attention', label: 'Needs attention', role: 'operator' },
];

export type { PageNotice };

export interface PageContent {
  title: string;
  body: Html;
  notice?: PageNotice;
}

/** The hidden field every console form carries. */
export function csrfField(req: Request, res: Response): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfTokenFor(req, res)}" />`;
}

/**
 * Sends a whole console page: never cached (pages show PHI), with the navigation its person's roles
 * open, a skip link and one main landmark, so it reads well with a keyboard and a screen reader.
 */
export function sendPage(req: Request, res: Response, content: PageContent, status = 200): void {
  const session = (req as ContextualRequest).context.console;
  const signedIn = session?.stage === 'signed_in';
  const roles = signedIn ? session.roles : [];
  const current = req.path;
  const navigation = NAVIGATION.filter((item) => grants(roles, item.role));
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${content.title} · Healthcare Access Console</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <header class="topbar">
          <a class="brand" href="/console">Healthcare Access <span>Console</span></a>
          ${
            signedIn
              ? html`<div class="whoami">
                  <span class="account">${session.accountName}</span>
                  <span class="person">${session.displayName}</span>
                  ${modeSwitch(req, res)}
                  <form method="post" action="/console/sign-out">
                    ${csrfField(req, res)}<button type="submit" class="link-button">Sign out</button>
                  </form>
                </div>`
              : ''
          }
        </header>
        <div class="frame">
          ${
            navigation.length > 0
              ? html`<nav class="sidebar" aria-label="Console sections">
                  <ul>
                    ${navigation.map(
                      (item) =>
                        html`<li>
                          <a
                            href="${item.href}"
                            ${current.startsWith(item.href) ? html` aria-current="page"` : ''}
                            >${item.label}</a
                          >
                        </li>`,
                    )}
                  </ul>
                </nav>`
              : ''
          }
          <main id="main" tabindex="-1">
            ${signedIn ? modeBanner(req) : ''}
            <h1>${content.title}</h1>
            ${
              content.notice
                ? notice({
                    kind: content.notice.kind,
                    body: content.notice.text,
                    role: content.notice.kind === 'error' ? 'alert' : 'status',
                  })
                : ''
            }
            ${content.body}
          </main>
        </div>
      </body>
    </html>`;
  res.status(status).setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.send(page.markup);
}

/**
 * Which mode's data the page shows, said before anything else on it: test data in a banner no one
 * can mistake for real patients' cases, live data as plainly.
 */
function modeBanner(req: Request): Html {
  return consoleLivemode(req)
    ? html`<p class="mode-banner mode-live" role="note">Live data: real requests sent to payers.</p>`
    : html`<p class="mode-banner mode-test" role="note">
        Test data: cases and webhooks of test keys, answered by simulators. Live data is hidden.
      </p>`;
}

/** The top bar's switch between the two modes; it comes back to the page it was used on. */
function modeSwitch(req: Request, res: Response): Html {
  const live = consoleLivemode(req);
  return html`<form method="post" action="${CONSOLE_MODE_PATH}" class="mode-switch">
    ${csrfField(req, res)}
    <input type="hidden" name="mode" value="${live ? 'test' : 'live'}" />
    <input type="hidden" name="return_to" value="${req.originalUrl}" />
    <button type="submit" class="link-button">${live ? 'View test data' : 'View live data'}</button>
  </form>`;
}
