-- A delivery's first attempt is made at once by the process that recorded it, outside Temporal.
-- Until this time that attempt owns the delivery; a delivery still pending after it (its process
-- died) is handed to the durable path by the sweeper. NULL: the durable path owns the delivery
-- (its workflow is started, or it was recorded before first attempts existed).
ALTER TABLE webhook_deliveries ADD COLUMN first_attempt_until timestamptz;

CREATE INDEX webhook_deliveries_first_attempt_idx ON webhook_deliveries (first_attempt_until)
  WHERE status = 'pending' AND first_attempt_until IS NOT NULL;
