-- Test and live modes (docs/decisions.md#modes). A key belongs to one mode; what it creates carries that
-- mode, and one mode never sees the other's objects. Everything that existed before modes is test
-- data: keys issued as `hak_…` keep working as test keys.
ALTER TABLE api_keys ADD COLUMN livemode boolean NOT NULL DEFAULT false;

ALTER TABLE case_summaries ADD COLUMN livemode boolean NOT NULL DEFAULT false;

-- Lists and the review queue filter by account and mode first.
DROP INDEX case_summaries_list_idx;
CREATE INDEX case_summaries_list_idx
  ON case_summaries (account_id, livemode, object, created_at DESC, case_id DESC);
DROP INDEX case_summaries_review_queue_idx;
CREATE INDEX case_summaries_review_queue_idx
  ON case_summaries (account_id, livemode, object, status, created_at, case_id);

-- The same Idempotency-Key sent with a test key and with a live key names two different requests.
ALTER TABLE idempotency_keys ADD COLUMN livemode boolean NOT NULL DEFAULT false;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (account_id, livemode, idempotency_key);

-- An endpoint receives the events of its own mode only.
ALTER TABLE webhook_endpoints ADD COLUMN livemode boolean NOT NULL DEFAULT false;
ALTER TABLE webhook_events ADD COLUMN livemode boolean NOT NULL DEFAULT false;
