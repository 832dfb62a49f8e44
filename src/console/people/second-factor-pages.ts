import { renderSVG } from 'uqr';

import { card, hiddenFields, inputField, postForm, secretReveal, submitButton } from '../views';
import { Html, html } from '../views/html';
import { emailField, passwordField } from './credential-fields';
import { PageContent } from '../layout';
import { otpauthUri } from './totp';
import type { ConsolePage } from '../console-page';

export const CODE_FIELD = 'code';

export const WRONG_CODE =
  'That code is not right, or it was already used. Enter the newest code your authenticator app shows.';

interface CodeForm {
  action: string;
  next?: string;
  error?: string;
}

function codeField(): Html {
  return inputField({
    name: CODE_FIELD,
    id: 'code',
    label: 'Authentication code',
    attributes: html`inputmode="numeric" pattern="[0-9 ]*" maxlength="8" autocomplete="one-time-code" required`,
  });
}

function nextField(next: string | undefined): Html | '' {
  return next === undefined ? '' : hiddenFields({ next });
}

/** Email and password; `next` is where the person goes once signed in. */
export function signInView(form: { next: string; email?: string }, csrf: Html): Html {
  return postForm({
    action: '/console/sign-in',
    csrf,
    className: 'card narrow',
    body: html`${hiddenFields({ next: form.next })} ${emailField(form.email ?? '')}
    ${passwordField('password', 'Password', 'current')} ${submitButton({ label: 'Sign in', kind: 'primary' })}`,
  });
}

function errorNotice(error: string | undefined): PageContent['notice'] {
  return error ? { kind: 'error', text: error } : undefined;
}

/** Asks for the current code of the app the person set up before. */
export function sendCodePage(page: ConsolePage, form: CodeForm, status = 200): void {
  page.send(
    {
      title: 'Two-step sign-in',
      notice: errorNotice(form.error),
      body: postForm({
        action: form.action,
        csrf: page.csrf(),
        className: 'card narrow',
        body: html`${nextField(form.next)}
          <p>Enter the 6-digit code your authenticator app shows for this account.</p>
          ${codeField()} ${submitButton({ label: 'Verify', kind: 'primary' })}`,
      }),
    },
    status,
  );
}

/**
 * Offers a new secret as a QR code and as text to type, and asks for a code from it. The QR code is
 * inline SVG, which the console's CSP allows, so the secret never leaves this page for an image URL.
 */
export function sendSetUpPage(
  page: ConsolePage,
  form: CodeForm & { secret: string; accountLabel: string },
  status = 200,
): void {
  const qrCode = new Html(renderSVG(otpauthUri(form.secret, form.accountLabel)));
  page.send(
    {
      title: 'Set up two-step sign-in',
      notice: errorNotice(form.error),
      body: card({
        narrow: true,
        body: html`<p>
            Two-step sign-in asks, after your password, for a code from an authenticator app on your phone
            (any app that supports time-based codes). Admins and reviewers must use it.
          </p>
          <ol>
            <li>In the app, add an account and scan this QR code.</li>
            <li>Enter the 6-digit code the app then shows.</li>
          </ol>
          <figure class="qr">
            <div role="img" aria-label="QR code that adds this account to an authenticator app">
              ${qrCode}
            </div>
            <figcaption>If you cannot scan it, type this key into the app instead:</figcaption>
          </figure>
          ${secretReveal({ id: 'totp-secret', value: form.secret, copyLabel: 'Copy key' })}
          ${postForm({
            action: form.action,
            csrf: page.csrf(),
            body: html`${nextField(form.next)} ${codeField()}
            ${submitButton({ label: 'Turn on two-step sign-in', kind: 'primary' })}`,
          })}`,
      }),
    },
    status,
  );
}
