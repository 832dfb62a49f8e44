-- The connectors an account configures for live mode, one row per (account, kind). The secret of
-- basic, bearer or header authentication is sealed with the payload keys ("keyId:base64"), because
-- the worker must send it; only its last characters are shown. A deleted connector keeps its row
-- without settings or secret, so its interchange control numbers go on where they stopped when it
-- is configured again: a clearinghouse may refuse an ISA13 it has seen from the same sender.
CREATE TABLE connector_settings (
  id text NOT NULL UNIQUE,
  account_id text NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('eligibility', 'prior_authorization', 'program_enrollment')),
  url text,
  format text CHECK (format IN ('x12', 'json')),
  auth_type text CHECK (auth_type IN ('none', 'basic', 'bearer', 'header')),
  auth_username text,
  auth_header_name text,
  auth_secret_sealed text,
  auth_secret_hint text,
  submitter_id text,
  receiver_id text,
  usage text CHECK (usage IN ('production', 'test')),
  timeout_ms integer CHECK (timeout_ms BETWEEN 1000 AND 30000),
  -- The last ISA13 handed out; 0 before the first.
  control_number integer NOT NULL DEFAULT 0 CHECK (control_number BETWEEN 0 AND 999999999),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (account_id, kind),
  CHECK (
    deleted_at IS NOT NULL
    OR (url IS NOT NULL AND auth_type IS NOT NULL AND timeout_ms IS NOT NULL)
  ),
  CHECK (deleted_at IS NULL OR (auth_type IS NULL AND auth_secret_sealed IS NULL)),
  CHECK ((auth_type IS NULL OR auth_type = 'none') = (auth_secret_sealed IS NULL)),
  CHECK ((auth_type = 'basic') = (auth_username IS NOT NULL)),
  CHECK ((auth_type = 'header') = (auth_header_name IS NOT NULL)),
  CHECK (
    kind <> 'eligibility' OR deleted_at IS NOT NULL
    OR (format IS NOT NULL AND submitter_id IS NOT NULL AND receiver_id IS NOT NULL AND usage IS NOT NULL)
  ),
  CHECK (
    kind = 'eligibility'
    OR (format IS NULL AND submitter_id IS NULL AND receiver_id IS NULL AND usage IS NULL)
  )
);
