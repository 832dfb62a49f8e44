import { BadRequestException, Type } from '@nestjs/common';

import { ApiError } from '../common/errors';
import { createValidationPipe } from '../common/validation';
import type { PageNotice } from './views/notice';

/** A text field of a submitted form, trimmed; absent, repeated or over-long values read as empty. */
export function formText(body: unknown, name: string, maxLength = 1000): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value !== 'string' || value.length > maxLength) return '';
  return value.trim();
}

/** Where to go after signing in: only a path inside the console, never another site. */
export function consoleReturnPath(value: unknown): string {
  if (typeof value !== 'string' || !/^\/console(\/[A-Za-z0-9._~\-/?=&%]*)?$/.test(value)) return '/console';
  return value;
}

/** The API's own validation step, so a form accepts and refuses exactly what the API does. */
const API_VALIDATION = createValidationPipe();

export type Checked<T> = { valid: true; value: T } | { valid: false; messages: string[] };

/**
 * Checks a form's fields against the API's DTO. Refusals come back as the API's messages
 * ("url: must be an absolute http or https URL …") for the page to show beside the form.
 */
export async function checkAsTheApiDoes<T>(dto: Type<T>, fields: object): Promise<Checked<T>> {
  try {
    return {
      valid: true,
      value: (await API_VALIDATION.transform(fields, { type: 'body', metatype: dto })) as T,
    };
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    return { valid: false, messages: messagesOf(error) };
  }
}

/** A query string checked like the API checks it; a refusal is the console's 400 page. */
export async function queryAsTheApiReads<T>(dto: Type<T>, query: object): Promise<T> {
  try {
    return (await API_VALIDATION.transform(query, { type: 'query', metatype: dto })) as T;
  } catch (error) {
    if (!(error instanceof BadRequestException)) throw error;
    throw new ApiError('validation_error', `The address is invalid: ${messagesOf(error).join('; ')}.`);
  }
}

function messagesOf(error: BadRequestException): string[] {
  const response = error.getResponse() as { message?: unknown };
  return Array.isArray(response.message) ? response.message.map(String) : [error.message];
}

/**
 * A text field as it was sent, untrimmed and unshortened, so the API's rules judge it; a field
 * that is absent or repeated is absent.
 */
export function formField(body: unknown, name: string): string | undefined {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The values of a group of checkboxes: none, one, or several fields of the same name. */
export function formChoices(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** What the API refused in a request, as a page lists it: each detail as `field: issue`. */
export function refusalDetails(error: ApiError): string[] {
  return error.details.map(({ field, issue }) => (field ? `${field}: ${issue}` : issue));
}

/** An API refusal as a form's errors: its details, or its message when it names no field. */
export function refusalMessages(error: ApiError): string[] {
  const details = refusalDetails(error);
  return details.length > 0 ? details : [error.message];
}

/** The sentence a page shows when a form was refused, in the API's words. */
export function refusalNotice(messages: string[]): { kind: 'error'; text: string } {
  return { kind: 'error', text: `Nothing was saved. ${messages.join('; ')}.` };
}

/** What a person is told of the checks a form failed: each check gives its sentence, or undefined. */
export function failedChecks(checks: ReadonlyArray<string | undefined>): string[] {
  return checks.filter((check): check is string => check !== undefined);
}

/** The sentences of a form's failed checks as the page's notice, one after the other; none, no notice. */
export function failedChecksNotice(failed: readonly string[] = []): PageNotice | undefined {
  return failed.length > 0 ? { kind: 'error', text: failed.join(' ') } : undefined;
}
