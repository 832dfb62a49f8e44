import { inputField, postForm, submitButton } from '../components';
import { Html, html } from '../html';

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
      ${inputField({
        name: 'email',
        label: 'Email',
        type: 'email',
        value: form.email,
        attributes: html`autocomplete="username" required`,
      })}
      ${inputField({
        name: 'password',
        label: 'Password',
        type: 'password',
        attributes: html`autocomplete="new-password" required`,
      })}
      ${inputField({
        name: 'password_again',
        label: 'Password again',
        type: 'password',
        attributes: html`autocomplete="new-password" required`,
      })}
      ${submitButton({ label: 'Create my user', kind: 'primary' })}`,
  });
}

export function closedInvitationView(): Html {
  return html`<p>
      This invitation link has expired or was already used. Ask your account admin for a new one.
    </p>
    <p><a href="/console/sign-in">Sign in</a></p>`;
}
