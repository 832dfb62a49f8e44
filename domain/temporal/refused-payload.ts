/**
 * What the worker's codec hands the workflow in place of a payload that was not encrypted (sent
 * by a client without the codec). Workflow code recognises it and refuses the message, instead of
 * the codec throwing, which would fail the workflow task on every retry and leave the case stuck.
 * No request the API builds can hold this key: strict DTOs refuse unknown fields.
 */
export const REFUSED_PAYLOAD_MARKER = '__payload_refused_unencrypted__';

export interface RefusedPayload {
  [REFUSED_PAYLOAD_MARKER]: true;
}

export function isRefusedPayload(value: unknown): value is RefusedPayload {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<string, unknown>)[REFUSED_PAYLOAD_MARKER] === true
  );
}
