import { inputField, postForm, submitButton } from '../views';
import { Html, html } from '../views/html';
import { emailField, passwordField } from './credential-fields';

export const NAME_MAX_LENGTH = 200;

/** What the invited person typed, kept when the form comes back refused (never the passwords). */
export interface JoinForm {
  displayName: string;
  email: string;
  errors?: string[];
}

/** The invited person's name, email and password; the form posts back to the link itself. */
export function joinView(form: JoinForm, csrf: Html): Html {
  return postForm({
    csrf,
    className: 'card narrow',
    body: html`<p>You were invited to the console. Choose how you will sign in.</p>
      ${inputField({
        name: 'display_name',
        label: 'Your name',
        value: form.displayName,
        attributes: html`autocomplete="name" maxlength="${NAME_MAX_LENGTH}" required`,
      })}
      ${emailField(form.email)} ${passwordField('password', 'Password', 'new')}
      ${passwordField('password_again', 'Password again', 'new')}
      ${submitButton({ label: 'Create my user', kind: 'primary' })}`,
  });
}

export function closedInvitationView(): Html {
  return html`<p>
      This invitation link has expired or was already used. Ask your account admin for a new one.
    </p>
    <p><a href="/console/sign-in">Sign in</a></p>`;
}
