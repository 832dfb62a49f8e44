-- Concurrent replays of one request store each document once.
CREATE UNIQUE INDEX case_documents_case_name ON case_documents (case_id, name);
