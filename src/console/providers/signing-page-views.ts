import { choice, inputField, postForm, submitButton } from '../views';
import { Html, html } from '../views/html';

export const TYPED_NAME_MAX_LENGTH = 200;
/** The form field carrying the SHA-256 of the text the page showed, as the signature records it. */
export const SHOWN_TEXT_FIELD = 'text_sha256';

/** The authorization as the prescriber reads it: the paragraphs whose text is signed, and the form. */
export function signingView(props: {
  accountName: string;
  paragraphs: string[];
  /** The SHA-256 of the paragraphs, sent back with the signature. */
  textSha256: string;
  typedName: string;
  csrf: Html;
}): Html {
  return html`<section class="card narrow" aria-labelledby="authorization-text">
      <h2 id="authorization-text">What you authorize</h2>
      <p>
        <strong>${props.accountName}</strong> asks you to let it submit benefit verifications and prior
        authorizations in your name through this service.
      </p>
      <blockquote>${props.paragraphs.map((paragraph) => html`<p>${paragraph}</p>`)}</blockquote>
    </section>
    ${postForm({
      csrf: props.csrf,
      className: 'card narrow',
      body: html`<h2>Sign</h2>
        <input type="hidden" name="${SHOWN_TEXT_FIELD}" value="${props.textSha256}" />
        ${inputField({
          name: 'typed_name',
          label: 'Your full name',
          value: props.typedName,
          hint: 'Type your first and last name as they appear above.',
          attributes: html`autocomplete="name" maxlength="${TYPED_NAME_MAX_LENGTH}" required`,
        })}
        ${choice({
          id: 'attest',
          name: 'attest',
          type: 'checkbox',
          value: 'yes',
          label: 'I have read the authorization above and I agree to it.',
          checked: false,
        })}
        ${submitButton({ label: 'Sign the authorization', kind: 'primary' })}`,
    })}`;
}

export function signedView(accountName: string, expiresAt: string): Html {
  return html`<p>
      Thank you. You authorized <strong>${accountName}</strong> until ${expiresAt.slice(0, 10)}. A
      confirmation was mailed to you, with a link to revoke it at any time.
    </p>
    <p>You may close this page.</p>`;
}

export function revokeView(props: { accountName: string; expiresAt: string; csrf: Html }): Html {
  return html`<p>
      You authorized <strong>${props.accountName}</strong> to submit benefit verifications and prior
      authorizations in your name until ${props.expiresAt.slice(0, 10)}.
    </p>
    <p>
      Revoking it stops new requests in your name at once. It cannot be undone; the clinic can ask you again.
    </p>
    ${postForm({
      csrf: props.csrf,
      className: 'card narrow',
      body: submitButton({ label: 'Revoke my authorization', kind: 'danger' }),
    })}`;
}

export function revokedView(accountName: string): Html {
  return html`<p>
    Your authorization of <strong>${accountName}</strong> is revoked. It can no longer act in your name
    through this service.
  </p>`;
}

/** One page for every link that opens nothing, whatever the reason, so a link reveals nothing. */
export function closedLinkView(): Html {
  return html`<p>
    This link is no longer valid. Links work once and lapse after a while. If you still need it, ask the
    clinic that sent it for a new one.
  </p>`;
}
