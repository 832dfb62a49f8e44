import type { Request } from 'express';

import type { Principal } from '../auth/accounts.repository';

/** What the edge learns about a request, attached once and read by guards, filters and logs. */
export interface RequestContext {
  requestId: string;
  principal?: Principal;
  /** A keyless request from a browser on this machine, in local mode (see LoopbackTrusted). */
  loopbackTrusted?: boolean;
}

export type ContextualRequest = Request & { context: RequestContext };
