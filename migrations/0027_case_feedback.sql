-- Feedback on a prior authorization (POST /prior-authorization/{id}/feedback): kept beside the case,
-- never in its workflow, so feedback on a decided case changes nothing of it. The comment and the
-- expected answers are free text a reviewer may fill with PHI: they are sealed (feedback_sealed).
-- The columns left open are what the admin report counts in SQL: the rating and parts, the drug as
-- the request named it, and per criterion only whether the reviewer expected another answer.
CREATE TABLE case_feedback (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  livemode boolean NOT NULL,
  case_id text NOT NULL,
  rating text NOT NULL CHECK (rating IN ('correct', 'partially_correct', 'incorrect')),
  parts text[] NOT NULL,
  -- The request's drug at the time: `ndc:<ndc>`, else `name:<name in lower case>`.
  drug_key text NOT NULL,
  drug_name text,
  drug_ndc text,
  -- [{ "id", "question", "differs" }]: the criteria the feedback named, without the answers expected.
  criteria_marks jsonb NOT NULL DEFAULT '[]',
  -- { "comment", "criteria": [{ "id", "expected_answer" }] }, sealed with the SecretBox.
  feedback_sealed text NOT NULL,
  author_type text NOT NULL CHECK (author_type IN ('api_key', 'user')),
  author_id text NOT NULL,
  -- The Idempotency-Key's bound id, so a retried POST finds the feedback its first attempt stored.
  idempotency_id text,
  created_at timestamptz NOT NULL
);

-- A case's feedback, oldest first: the case's reads and the per-case cap.
CREATE INDEX case_feedback_case_idx ON case_feedback (account_id, case_id, created_at, id);
-- The admin report: one account and mode over a period.
CREATE INDEX case_feedback_report_idx ON case_feedback (account_id, livemode, created_at);
CREATE UNIQUE INDEX case_feedback_idempotency_idx ON case_feedback (account_id, idempotency_id)
  WHERE idempotency_id IS NOT NULL;
-- The retention purge and erasures remove a case's feedback by its id.
CREATE INDEX case_feedback_purge_idx ON case_feedback (case_id);
