import type { Client } from '@temporalio/client';

import { ATTENTION_REASONS } from '../../../domain/cases/case-model';
import { CASE_ATTENTION, CASE_TYPE } from '../../../domain/temporal/search-attributes';

/** A case Temporal visibility marks as waiting out a connector outage: its id and type, nothing else. */
export interface CaseNeedingAttention {
  caseId: string;
  /** The `CaseType` search attribute: a case object type, as the workflow's starter set it. */
  object: string;
}

/**
 * Operators' saved query (docs/runbook.md): running cases whose `CaseAttention` search attribute
 * holds a reason. Every value is one of our own enums; nothing free-form is interpolated.
 */
export const ATTENTION_QUERY = `${CASE_ATTENTION.name} IN (${ATTENTION_REASONS.map(
  (reason) => `'${reason}'`,
).join(', ')}) AND ExecutionStatus = 'Running'`;

/**
 * The cases of every account that need an operator, as Temporal visibility lists them. Only the
 * workflow id and the `CaseType` search attribute are read here; each case is then read through
 * `CasesService`, which checks whose it is and what its memo says now.
 */
export class CasesNeedingAttention {
  constructor(private readonly client: Client) {}

  /** At most `limit` cases; `more` says visibility had others beyond them. */
  async find(limit: number): Promise<{ cases: CaseNeedingAttention[]; more: boolean }> {
    const cases: CaseNeedingAttention[] = [];
    for await (const execution of this.client.workflow.list({ query: ATTENTION_QUERY, pageSize: limit })) {
      if (cases.length === limit) return { cases, more: true };
      const object = execution.typedSearchAttributes.get(CASE_TYPE);
      if (object) cases.push({ caseId: execution.workflowId, object });
    }
    return { cases, more: false };
  }
}
