-- Documents submitted with cases (insurance card images, attachments). Kept out of Temporal,
-- whose payloads are size-limited, and encrypted with the payload keys ("keyId:base64").
CREATE TABLE case_documents (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  case_id text NOT NULL,
  name text NOT NULL,
  content_type text NOT NULL,
  sha256 text NOT NULL,
  size_bytes integer NOT NULL,
  content_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX case_documents_case_idx ON case_documents (case_id);

-- Idempotency-Key of case-creating POSTs: the same key and body within 24 h replay the first
-- response; another body with the same key is refused. The case id is fixed when the key is first
-- seen, so a retry after a crash starts (or finds) that same workflow.
CREATE TABLE idempotency_keys (
  account_id text NOT NULL REFERENCES accounts (id),
  idempotency_key text NOT NULL,
  endpoint text NOT NULL,
  request_sha256 text NOT NULL,
  resource_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, idempotency_key)
);
