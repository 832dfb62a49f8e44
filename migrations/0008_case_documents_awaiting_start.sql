-- Documents are stored before their case's workflow is started. Until the start is confirmed they
-- carry the time they were stored (or last claimed by a replay of their request); NULL: their case
-- was started (and every document stored before this migration). Documents still awaiting a start
-- long after it would have ended belong to a request whose process died between store and start:
-- a worker's sweep removes them when Temporal has no such case.
ALTER TABLE case_documents ADD COLUMN awaiting_start_since timestamptz;

CREATE INDEX case_documents_awaiting_start_idx ON case_documents (awaiting_start_since)
  WHERE awaiting_start_since IS NOT NULL;
