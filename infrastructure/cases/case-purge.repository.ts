import { FINAL_STATUSES } from '../../domain/cases/case-model';
import { newId } from '../../domain/ids';
import { deleteOrphanedReadings } from '../documents/document-readings.repository';
import { deleteFeedbackOfCase } from './case-feedback.repository';
import { Database } from '../storage/database';

/** Why a case's data went; the audit action recorded with it (audit/audit-event.ts). */
export type CasePurgeReason = 'case.purged' | 'case.erased';

/** Who the audit trail names for a purge: the system's schedule, or the key that asked for an erasure. */
export interface PurgeActor {
  type: 'system' | 'api_key' | 'user';
  id: string;
}

export interface CasePurge {
  caseId: string;
  reason: CasePurgeReason;
  actor: PurgeActor;
  /** The workflow doing the purge (the retention run or the erasure), as the audit event's request id. */
  requestId: string;
}

/** A closed case due for purging: its id and owner, nothing more. */
export interface ExpiredCase {
  case_id: string;
  account_id: string;
}

/**
 * The SQL half of removing a case: every row that holds or points to its data, in one transaction
 * with the audit event that records the removal. Temporal's half (the workflow execution) is the
 * caller's, done first, so a purge interrupted between the two finds the summary row again and ends.
 */
export class CasePurgeRepository {
  constructor(private readonly db: Database) {}

  /** Closed cases whose last change is older than `cutoff`, oldest first. */
  async closedBefore(cutoff: Date, limit: number): Promise<ExpiredCase[]> {
    return this.db.query<ExpiredCase>(
      `SELECT case_id, account_id FROM case_summaries
       WHERE status = ANY($1::text[]) AND updated_at < $2
       ORDER BY updated_at, case_id LIMIT $3`,
      [FINAL_STATUSES, cutoff.toISOString(), limit],
    );
  }

  /** The cases of one patient (by PatientRef) in one account and mode, open or closed. */
  async casesOfPatient(scope: {
    accountId: string;
    livemode: boolean;
    patientRef: string;
  }): Promise<string[]> {
    const rows = await this.db.query<{ case_id: string }>(
      `SELECT case_id FROM case_summaries
       WHERE account_id = $1 AND livemode = $2 AND patient_ref = $3 ORDER BY created_at, case_id`,
      [scope.accountId, scope.livemode, scope.patientRef],
    );
    return rows.map((row) => row.case_id);
  }

  /**
   * Deletes the case's documents (and the readings of those no other case of the account refers to), events with their deliveries and attempts, idempotency keys,
   * feedback and summary, and records the purge. Says whether the case was still there: a repeated
   * purge deletes and records nothing.
   */
  async purge(purge: CasePurge, now = new Date()): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [summary] = await tx.query<{ account_id: string; object: string }>(
        'DELETE FROM case_summaries WHERE case_id = $1 RETURNING account_id, object',
        [purge.caseId],
      );
      const removedDocuments = await tx.query<{ account_id: string; sha256: string }>(
        'DELETE FROM case_documents WHERE case_id = $1 RETURNING account_id, sha256',
        [purge.caseId],
      );
      await deleteOrphanedReadings(tx, removedDocuments);
      await tx.query(
        `DELETE FROM webhook_delivery_attempts WHERE delivery_id IN (
           SELECT webhook_deliveries.id FROM webhook_deliveries
           JOIN webhook_events ON webhook_events.id = webhook_deliveries.event_id
           WHERE webhook_events.case_id = $1)`,
        [purge.caseId],
      );
      // One statement for first deliveries and their manual retries: the retries' references to the
      // deliveries they repeat are checked when it ends, by which time both are gone.
      await tx.query(
        'DELETE FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events WHERE case_id = $1)',
        [purge.caseId],
      );
      await tx.query('DELETE FROM webhook_events WHERE case_id = $1', [purge.caseId]);
      await tx.query('DELETE FROM idempotency_keys WHERE resource_id = $1', [purge.caseId]);
      await deleteFeedbackOfCase(tx, purge.caseId);
      if (!summary) return false;
      await tx.query(
        `INSERT INTO audit_events
           (id, account_id, actor_type, actor_id, action, target_object, target_id, request_id, details, occurred_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '{}'::jsonb, $9)`,
        [
          newId('auditEvent', now.getTime()),
          summary.account_id,
          purge.actor.type,
          purge.actor.id,
          purge.reason,
          summary.object,
          purge.caseId,
          purge.requestId,
          now.toISOString(),
        ],
      );
      return true;
    });
  }
}
