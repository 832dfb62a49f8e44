import type { AuditActor } from '../../infrastructure/audit/audit-event';
import type { RequestContext } from './request-context';

/**
 * Who made the request. Loopback-trusted codec calls (local mode's Temporal Web, which has no
 * login) carry no key: they are the operator at this machine's console.
 */
export function actorOf(context: RequestContext): AuditActor {
  const principal = context.principal;
  if (!principal) return { type: 'operator', id: 'local-loopback' };
  // Compared as strings: `operator` is a platform role that no account's key can hold.
  const isOperator = (principal.roles as readonly string[]).includes('operator');
  if (isOperator) return { type: 'operator', id: principal.credential.id };
  return { type: principal.credential.type, id: principal.credential.id };
}
