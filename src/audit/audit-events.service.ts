import type {
  AuditEventFilter,
  AuditEventPage,
  AuditRepository,
} from '../../infrastructure/audit/audit.repository';

/** The audit trail as an account's admins read it: one account's events, newest first. */
export class AuditEventsService {
  constructor(private readonly audit: AuditRepository) {}

  list(accountId: string, filter: AuditEventFilter): Promise<AuditEventPage> {
    return this.audit.list(accountId, filter);
  }
}
