-- Webhook endpoints of an account. The signing secret is encrypted with the payload keys
-- ("keyId:base64"), because delivery must read it back; only its last characters are shown.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  url text NOT NULL,
  events text[] NOT NULL,
  secret_sealed text NOT NULL,
  secret_hint text NOT NULL,
  status text NOT NULL DEFAULT 'inactive' CHECK (status IN ('inactive', 'activating', 'active')),
  status_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);

CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id) WHERE deleted_at IS NULL;

-- One row per event; the notification body (the case's GET object, so PHI) is encrypted.
CREATE TABLE webhook_events (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  type text NOT NULL,
  body_sealed text NOT NULL,
  created_at timestamptz NOT NULL
);

-- One row per (event, endpoint) from the fan-out, plus one per manual retry. Each is delivered by
-- its own workflow whose id is the delivery id.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  event_id text NOT NULL REFERENCES webhook_events (id),
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id),
  account_id text NOT NULL REFERENCES accounts (id),
  retry_of text REFERENCES webhook_deliveries (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed', 'abandoned')),
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);

-- Makes the fan-out idempotent when its activity is retried.
CREATE UNIQUE INDEX webhook_deliveries_fanout_once ON webhook_deliveries (event_id, endpoint_id) WHERE retry_of IS NULL;
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);

CREATE TABLE webhook_delivery_attempts (
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id),
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  http_status integer,
  error text,
  next_attempt_at timestamptz,
  PRIMARY KEY (delivery_id, attempt)
);
