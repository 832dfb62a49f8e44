import { inputField } from '../views';
import { Html, html } from '../views/html';

/** The email a person signs in with, named `username` for password managers. */
export function emailField(value: string): Html {
  return inputField({
    name: 'email',
    label: 'Email',
    type: 'email',
    value,
    attributes: html`autocomplete="username" required`,
  });
}

/**
 * A password field; `purpose` tells password managers whether to fill the saved one or offer a
 * new one.
 */
export function passwordField(name: string, label: string, purpose: 'current' | 'new'): Html {
  return inputField({
    name,
    label,
    type: 'password',
    attributes: html`autocomplete="${purpose}-password" required`,
  });
}
