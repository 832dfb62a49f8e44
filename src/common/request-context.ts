import type { Request } from 'express';

import type { Principal } from '../auth/accounts.repository';
import type { ConsoleSession } from '../console/people/console-sessions.repository';

/** What the edge learns about a request, attached once and read by guards, filters and logs. */
export interface RequestContext {
  requestId: string;
  principal?: Principal;
  /** The console session of a request under /console, whatever its stage. */
  console?: ConsoleSession;
  /** Set by the console's edge: the session cookie, never an API key, authenticates this request. */
  throughConsoleEdge?: boolean;
  /** A keyless request from a browser on this machine, in local mode (see LoopbackTrusted). */
  loopbackTrusted?: boolean;
  /**
   * The account that owns what an operator acted on (operators belong to no customer account): the
   * audit event goes to its trail rather than the operator's own.
   */
  actedForAccountId?: string;
}

export type ContextualRequest = Request & { context: RequestContext };
