-- Prescribers' authorizations of an account (docs/providers.md). Each row is the read model of one
-- authorization's workflow, which rewrites it at every change; `sequence` orders those writes, so a
-- retried older write never replaces a newer one. Names, email and phone are a prescriber's
-- directory and contact details, not patient data.
CREATE TABLE provider_authorizations (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  livemode boolean NOT NULL,
  npi text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text,
  practice text,
  -- How long a signature lasts, in days: the account's period when the authorization was started.
  period_days integer NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'signed', 'expired', 'revoked')),
  link_expires_at timestamptz,
  signed_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  sequence integer NOT NULL DEFAULT 0,
  -- The signature (docs/providers.md, "What a signature records"): never in an API answer.
  signature_typed_name text,
  signature_client_address text,
  signature_user_agent text,
  signature_text_sha256 text
);

-- The list, newest first within an account and mode (contract section 5 cursors).
CREATE INDEX provider_authorizations_list_idx
  ON provider_authorizations (account_id, livemode, created_at DESC, id DESC);
-- Enforcement asks one question per BV or PA: is this NPI signed and current here?
CREATE INDEX provider_authorizations_signed_idx
  ON provider_authorizations (account_id, livemode, npi, expires_at) WHERE status = 'signed';
-- At most one pending authorization per NPI in an account and mode: a second is refused (409).
CREATE UNIQUE INDEX provider_authorizations_one_pending_idx
  ON provider_authorizations (account_id, livemode, npi) WHERE status = 'pending';

-- The links mailed to a prescriber: only the SHA-256 of each token is kept. A sign link is used once;
-- a revoke link is used once. Neither names the account or the prescriber in its address.
CREATE TABLE provider_authorization_links (
  token_sha256 text PRIMARY KEY,
  authorization_id text NOT NULL REFERENCES provider_authorizations (id),
  purpose text NOT NULL CHECK (purpose IN ('sign', 'revoke')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX provider_authorization_links_authorization_idx
  ON provider_authorization_links (authorization_id);

-- An account's settings (docs/providers.md): whether a BV or PA needs a signed authorization of its
-- prescriber, per mode, and how long a signature lasts. No row: the defaults (off in test mode, on
-- in live mode, 365 days).
CREATE TABLE account_settings (
  account_id text PRIMARY KEY REFERENCES accounts (id),
  require_provider_authorization_test boolean NOT NULL DEFAULT false,
  require_provider_authorization_live boolean NOT NULL DEFAULT true,
  provider_authorization_period_days integer NOT NULL DEFAULT 365
    CHECK (provider_authorization_period_days BETWEEN 1 AND 3650),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The prescriber signs and revokes through their link: the audit trail names them by the authorization.
ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_type_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_type_check
  CHECK (actor_type IN ('api_key', 'user', 'operator', 'system', 'prescriber'));
