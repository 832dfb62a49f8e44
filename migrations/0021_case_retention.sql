-- Case retention and patient erasure (docs/operations.md, "Case retention"). A case event names its
-- case, so the case's events go with it; events recorded before this column hold NULL and are matched
-- by no purge (events expire after 30 days anyway).
ALTER TABLE webhook_events ADD COLUMN case_id text;
CREATE INDEX webhook_events_case_idx ON webhook_events (case_id) WHERE case_id IS NOT NULL;

-- The purge looks for closed cases by the time of their last change.
CREATE INDEX case_summaries_closed_idx ON case_summaries (updated_at)
  WHERE status IN ('completed', 'failed', 'cancelled');

-- Idempotency keys of a purged case go with it.
CREATE INDEX idempotency_keys_resource_idx ON idempotency_keys (resource_id);

-- The retention schedule and erasures act on no one's request: their audit events name the system.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
  CHECK (actor_type IN ('api_key', 'user', 'operator', 'system'));
