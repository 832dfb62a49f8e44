-- The audit trail (HIPAA audit controls): who did what to which resource, and when. Rows hold ids,
-- enums and filter names only, never PHI. account_id is NULL for platform-level events: an operator
-- decode whose payloads name no account's case. Purged after AUDIT_RETENTION_DAYS (docs/audit.md).
CREATE TABLE audit_events (
  id text PRIMARY KEY,
  account_id text REFERENCES accounts (id),
  actor_type text NOT NULL CHECK (actor_type IN ('api_key', 'user', 'operator')),
  actor_id text NOT NULL,
  action text NOT NULL,
  target_object text,
  target_id text,
  request_id text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  occurred_at timestamptz NOT NULL
);

-- Newest first within an account, the order GET /audit-events pages in.
CREATE INDEX audit_events_account_idx ON audit_events (account_id, occurred_at DESC, id DESC);
-- The retention purge.
CREATE INDEX audit_events_occurred_idx ON audit_events (occurred_at);
