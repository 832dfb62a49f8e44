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
