import type { Request } from 'express';

/**
 * What the edge learns about a request, attached once and read by guards, filters and logs. The
 * features that learn more add their fields to it where they set them (`principal` in
 * auth/authentication.middleware.ts, `console` in console/console-edge.ts), so this module needs none of them.
 */
export interface RequestContext {
  requestId: string;
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
