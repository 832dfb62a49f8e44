-- Accounts are active or suspended. A suspended account's keys and console sessions are refused;
-- its running cases still finish and their webhooks are still delivered.
ALTER TABLE accounts ADD COLUMN status text NOT NULL DEFAULT 'active'
  CONSTRAINT accounts_status_known CHECK (status IN ('active', 'suspended'));
ALTER TABLE accounts ADD COLUMN suspended_at timestamptz;

-- When a key last authenticated a request, written at most once a minute per key (see AccountsRepository).
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

-- People who sign in to the console. Each belongs to one account and holds roles like a key does.
-- Passwords are scrypt hashes ("scrypt$N$r$p$salt$hash"); TOTP secrets are sealed like webhook secrets.
CREATE TABLE console_users (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  email text NOT NULL,
  display_name text NOT NULL,
  roles text[] NOT NULL,
  password_hash text NOT NULL,
  totp_secret_sealed text,
  totp_enabled_at timestamptz,
  -- The last TOTP time step accepted, so one code cannot sign in twice.
  totp_last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  disabled_at timestamptz,
  CONSTRAINT console_users_roles_known
    CHECK (roles <@ ARRAY['provider', 'reviewer', 'admin', 'operator']::text[] AND cardinality(roles) > 0)
);

-- One email signs in to one user, whichever case it was typed in.
CREATE UNIQUE INDEX console_users_email_idx ON console_users (lower(email));
CREATE INDEX console_users_account_idx ON console_users (account_id);

-- Only a SHA-256 digest of each session token is stored; the token lives in the browser's cookie.
-- A session is `password_verified` until its second factor is checked (or set up), then `signed_in`.
CREATE TABLE console_sessions (
  id text PRIMARY KEY,
  token_digest text NOT NULL UNIQUE,
  user_id text NOT NULL REFERENCES console_users (id),
  account_id text NOT NULL REFERENCES accounts (id),
  stage text NOT NULL CONSTRAINT console_sessions_stage_known CHECK (stage IN ('password_verified', 'signed_in')),
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);

CREATE INDEX console_sessions_user_idx ON console_sessions (user_id);

-- Single-use invitations an account admin hands to a colleague; only the token's digest is stored.
CREATE TABLE console_invitations (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  token_digest text NOT NULL UNIQUE,
  roles text[] NOT NULL,
  invited_by text NOT NULL REFERENCES console_users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  accepted_by text REFERENCES console_users (id),
  CONSTRAINT console_invitations_roles_known
    CHECK (roles <@ ARRAY['provider', 'reviewer', 'admin']::text[] AND cardinality(roles) > 0)
);

CREATE INDEX console_invitations_account_idx ON console_invitations (account_id);
