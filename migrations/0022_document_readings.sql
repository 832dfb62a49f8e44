-- What the document reader found in a document (docs/documents.md): its text, word positions and page
-- facts, sealed like the document itself. Read once per account and content (sha256), so a card sent
-- again is not read again; deleted with the last of the account's documents of that content (case
-- retention, patient erasure).
CREATE TABLE document_readings (
  account_id text NOT NULL,
  sha256 text NOT NULL,
  reading_sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, sha256)
);

CREATE INDEX case_documents_account_sha256_idx ON case_documents (account_id, sha256);
