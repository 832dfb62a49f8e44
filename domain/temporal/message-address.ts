/**
 * The field the API adds to every message it sends a case: the case's own id, inside the encrypted
 * argument. An argument copied from another case's history still names that case, and its
 * encryption keeps anyone without the payload keys from rewriting it.
 */
export const ADDRESSED_TO = 'addressedTo';

export function addressTo<Message extends object>(caseId: string, message: Message): Message {
  return { ...message, [ADDRESSED_TO]: caseId };
}

/**
 * The case a message names, if it names one, and the message as its handler expects it. Messages
 * without an address (an operator's signal, or one sent before addresses existed) name none.
 */
export function readAddress(args: unknown[]): { addressedTo?: unknown; args: unknown[] } {
  const [first, ...rest] = args;
  if (typeof first !== 'object' || first === null || !(ADDRESSED_TO in first)) return { args };
  const { [ADDRESSED_TO]: addressedTo, ...message } = first as Record<string, unknown>;
  return { addressedTo, args: [message, ...rest] };
}
