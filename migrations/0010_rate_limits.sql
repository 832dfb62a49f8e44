-- Token buckets of the per-key rate limit, shared by every API process so N replicas allow the
-- configured rate once, not N times. One row per API key; SqlRateLimiter updates it in one statement.
CREATE TABLE rate_limit_buckets (
  bucket_key text PRIMARY KEY,
  tokens double precision NOT NULL,
  refilled_at timestamptz NOT NULL,
  last_take_allowed boolean NOT NULL
);
