-- Accounts own every case and webhook endpoint; API keys authenticate one account with roles.
CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Only a SHA-256 digest of each key is stored; the key itself is shown once, at creation.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  key_digest text NOT NULL UNIQUE,
  key_hint text NOT NULL,
  label text NOT NULL,
  roles text[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  CONSTRAINT api_keys_roles_known CHECK (roles <@ ARRAY['provider', 'reviewer', 'admin']::text[] AND cardinality(roles) > 0)
);

CREATE INDEX api_keys_account_idx ON api_keys (account_id);
