-- The events API (GET /events) lists one account's events of one mode, newest first, for 30 days.
CREATE INDEX webhook_events_list_idx ON webhook_events (account_id, livemode, created_at DESC, id DESC);

-- The expiry sweep finds events past 30 days across accounts, and removes their deliveries with them
-- (manual retries included, which the fan-out's unique index does not cover).
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

-- A thin endpoint's notifications carry only the object's id, object, status and livemode: no PHI.
-- Read at each attempt, so a change applies to the next attempt of every pending delivery.
ALTER TABLE webhook_endpoints ADD COLUMN thin boolean NOT NULL DEFAULT false;
