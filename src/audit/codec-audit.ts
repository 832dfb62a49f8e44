import { Client, WorkflowNotFoundError } from '@temporalio/client';
import { METADATA_ENCODING_KEY, Payload } from '@temporalio/common';

import { CASE_KINDS, type CaseObjectType } from '../../domain/cases/case-kinds';
import { ID_PREFIXES } from '../../domain/ids';
import { ACCOUNT_ID } from '../../domain/temporal/search-attributes';
import type { AuditTarget, NewAuditEvent } from '../../infrastructure/audit/audit-event';
import { AuditRepository } from '../../infrastructure/audit/audit.repository';
import type { RequestContext } from '../common/request-context';
import { actorOf } from '../common/actor';

const CASE_OBJECTS: Record<string, CaseObjectType> = Object.fromEntries(
  CASE_KINDS.map((kind) => [kind.idPrefix, kind.object]),
);

/** Any of our ids that a payload may carry and that leads to an account. */
const OWNED_ID = new RegExp(
  `^(${[ID_PREFIXES.account, ID_PREFIXES.delivery, ID_PREFIXES.event, ...Object.keys(CASE_OBJECTS)].join(
    '|',
  )})_[0-9a-z]{26}$`,
);

/** JSON values read per payload in search of ids; a case object has a few thousand at most. */
const MAX_VALUES_READ = 200_000;
/** Case → account never changes, so answers are kept; bounded so memory stays flat. */
const MAX_CACHED_CASES = 10_000;
const DESCRIBES_IN_FLIGHT = 10;

interface NamedIds {
  accountIds: Set<string>;
  caseIds: Set<string>;
  deliveryIds: Set<string>;
  eventIds: Set<string>;
}

/**
 * Audits the codec. The codec sees payloads, not cases, so each use is attributed to the accounts
 * its plaintext names: a case id (the workflow's AccountId search attribute says whose), an
 * account id, or a webhook delivery or event id. A use that names none is recorded once as a
 * platform-level event (no account). See docs/audit.md.
 */
export class CodecAudit {
  private readonly caseAccounts = new Map<string, string>();

  constructor(
    private readonly audit: AuditRepository,
    private readonly temporalClient: Client,
  ) {}

  async record(
    context: RequestContext,
    action: 'codec.decoded' | 'codec.encoded',
    plaintext: Payload[],
  ): Promise<void> {
    const named = idsNamedIn(plaintext);
    const targetsByAccount = await this.targetsByAccount(named);
    const actor = actorOf(context);
    const common = {
      actor,
      action,
      requestId: context.requestId,
      details: { payload_count: plaintext.length },
    };
    const events: NewAuditEvent[] = [];
    for (const [accountId, targets] of targetsByAccount) {
      if (targets.length === 0) events.push({ ...common, accountId, target: null });
      for (const target of targets) events.push({ ...common, accountId, target });
    }
    if (events.length === 0) events.push({ ...common, accountId: null, target: null });
    await this.audit.record(events);
  }

  private async targetsByAccount(named: NamedIds): Promise<Map<string, AuditTarget[]>> {
    const byAccount = new Map<string, AuditTarget[]>();
    const add = (accountId: string, target?: AuditTarget) => {
      const targets = byAccount.get(accountId) ?? [];
      if (target) targets.push(target);
      byAccount.set(accountId, targets);
    };
    const owners = await this.audit.ownersOf({
      accountIds: [...named.accountIds],
      deliveryIds: [...named.deliveryIds],
      eventIds: [...named.eventIds],
    });
    for (const accountId of named.accountIds) if (owners.has(accountId)) add(accountId);
    for (const id of named.deliveryIds) {
      const owner = owners.get(id);
      if (owner) add(owner, { object: 'webhook_delivery', id });
    }
    for (const id of named.eventIds) {
      const owner = owners.get(id);
      if (owner) add(owner, { object: 'event', id });
    }
    for (const [caseId, accountId] of await this.accountsOfCases([...named.caseIds])) {
      add(accountId, { object: CASE_OBJECTS[caseId.slice(0, caseId.indexOf('_'))]!, id: caseId });
    }
    return byAccount;
  }

  private async accountsOfCases(caseIds: string[]): Promise<Map<string, string>> {
    const accounts = new Map<string, string>();
    for (let start = 0; start < caseIds.length; start += DESCRIBES_IN_FLIGHT) {
      await Promise.all(
        caseIds.slice(start, start + DESCRIBES_IN_FLIGHT).map(async (caseId) => {
          const accountId = await this.accountOfCase(caseId);
          if (accountId) accounts.set(caseId, accountId);
        }),
      );
    }
    return accounts;
  }

  private async accountOfCase(caseId: string): Promise<string | undefined> {
    const cached = this.caseAccounts.get(caseId);
    if (cached) return cached;
    try {
      const description = await this.temporalClient.workflow.getHandle(caseId).describe();
      const accountId = description.typedSearchAttributes.get(ACCOUNT_ID);
      if (!accountId) return undefined;
      if (this.caseAccounts.size >= MAX_CACHED_CASES) {
        this.caseAccounts.delete(this.caseAccounts.keys().next().value!);
      }
      this.caseAccounts.set(caseId, accountId);
      return accountId;
    } catch (error) {
      // A case id quoted in a payload whose workflow is gone (or never existed) attributes nothing.
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    }
  }
}

/** Our ids found anywhere in the JSON payloads; other encodings (binary, null) name nothing. */
export function idsNamedIn(payloads: Payload[]): NamedIds {
  const named: NamedIds = {
    accountIds: new Set(),
    caseIds: new Set(),
    deliveryIds: new Set(),
    eventIds: new Set(),
  };
  for (const payload of payloads) {
    const encoding = payload.metadata?.[METADATA_ENCODING_KEY];
    if (!payload.data || !encoding || Buffer.from(encoding).toString() !== 'json/plain') continue;
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(payload.data).toString('utf8'));
    } catch {
      continue;
    }
    for (const text of stringsIn(value)) {
      const match = OWNED_ID.exec(text);
      if (!match) continue;
      const prefix = match[1];
      if (prefix === ID_PREFIXES.account) named.accountIds.add(text);
      else if (prefix === ID_PREFIXES.delivery) named.deliveryIds.add(text);
      else if (prefix === ID_PREFIXES.event) named.eventIds.add(text);
      else named.caseIds.add(text);
    }
  }
  return named;
}

/** Iterative, so a deeply nested payload cannot overflow the stack. */
function stringsIn(root: unknown): string[] {
  const strings: string[] = [];
  const pending: unknown[] = [root];
  for (let read = 0; pending.length > 0 && read < MAX_VALUES_READ; read++) {
    const value = pending.pop();
    if (typeof value === 'string') strings.push(value);
    else if (value !== null && typeof value === 'object') {
      for (const child of Object.values(value)) pending.push(child);
    }
  }
  return strings;
}
