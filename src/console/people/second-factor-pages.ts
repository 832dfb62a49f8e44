import type { Request, Response } from 'express';
import { renderSVG } from 'uqr';

import { Html, html } from '../html';
import { csrfField, PageContent, sendPage } from '../layout';
import { otpauthUri } from './totp';

export const CODE_FIELD = 'code';

export const WRONG_CODE =
  'That code is not right, or it was already used. Enter the newest code your authenticator app shows.';

interface CodeForm {
  action: string;
  next?: string;
  error?: string;
}

function codeField(): Html {
  return html`<label for="code">Authentication code</label>
    <input
      id="code"
      name="${CODE_FIELD}"
      type="text"
      inputmode="numeric"
      pattern="[0-9 ]*"
      maxlength="8"
      autocomplete="one-time-code"
      required
    />`;
}

function nextField(next: string | undefined): Html | '' {
  return next === undefined ? '' : html`<input type="hidden" name="next" value="${next}" />`;
}

function errorNotice(error: string | undefined): PageContent['notice'] {
  return error ? { kind: 'error', text: error } : undefined;
}

/** Asks for the current code of the app the person set up before. */
export function sendCodePage(req: Request, res: Response, form: CodeForm, status = 200): void {
  sendPage(
    req,
    res,
    {
      title: 'Two-step sign-in',
      notice: errorNotice(form.error),
      body: html`<form method="post" action="${form.action}" class="card narrow">
        ${csrfField(req, res)} ${nextField(form.next)}
        <p>Enter the 6-digit code your authenticator app shows for this account.</p>
        ${codeField()}
        <button type="submit" class="primary">Verify</button>
      </form>`,
    },
    status,
  );
}

/**
 * Offers a new secret as a QR code and as text to type, and asks for a code from it. The QR code is
 * inline SVG, which the console's CSP allows, so the secret never leaves this page for an image URL.
 */
export function sendSetUpPage(
  req: Request,
  res: Response,
  form: CodeForm & { secret: string; accountLabel: string },
  status = 200,
): void {
  const qrCode = new Html(renderSVG(otpauthUri(form.secret, form.accountLabel)));
  sendPage(
    req,
    res,
    {
      title: 'Set up two-step sign-in',
      notice: errorNotice(form.error),
      body: html`<section class="card narrow">
        <p>
          Two-step sign-in asks, after your password, for a code from an authenticator app on your phone (any
          app that supports time-based codes). Admins and reviewers must use it.
        </p>
        <ol>
          <li>In the app, add an account and scan this QR code.</li>
          <li>Enter the 6-digit code the app then shows.</li>
        </ol>
        <figure class="qr">
          <div role="img" aria-label="QR code that adds this account to an authenticator app">${qrCode}</div>
          <figcaption>If you cannot scan it, type this key into the app instead:</figcaption>
        </figure>
        <p class="secret" id="totp-secret">${form.secret}</p>
        <button type="button" class="small" data-copy-from="totp-secret">Copy key</button>
        <form method="post" action="${form.action}">
          ${csrfField(req, res)} ${nextField(form.next)} ${codeField()}
          <button type="submit" class="primary">Turn on two-step sign-in</button>
        </form>
      </section>`,
    },
    status,
  );
}
