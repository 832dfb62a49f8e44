-- Every POST takes an Idempotency-Key (docs/decisions.md#idempotency). A key whose request ran to an answer keeps
-- that answer, sealed (it may hold PHI or a new API key's secret), to replay it for 24 h;
-- `locked_until` marks a request still in flight, so a retry arriving meanwhile never acts twice.
-- Case creations keep no answer: their replay reads the case as it stands.
ALTER TABLE idempotency_keys ADD COLUMN answer_status integer;
ALTER TABLE idempotency_keys ADD COLUMN answer_sealed text;
ALTER TABLE idempotency_keys ADD COLUMN locked_until timestamptz;
-- Expired keys are deleted by age.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
