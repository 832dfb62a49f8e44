-- Feedback on a prior authorization (POST /prior-authorization/{id}/feedback): kept beside the case,
-- never in its workflow, so feedback on a decided case changes nothing of it. The row names its case,
-- and the case its patient, so nothing here is in clear that would say which patient gets which drug
-- (docs/architecture.md: clear columns hold no name, birth date, drug or note). The comment and the
-- expected answers are sealed (feedback_sealed), and so are the drug and the criteria's questions
-- (drug_sealed). The columns left open are what the admin report counts in SQL: the rating and parts,
-- a keyed hash of the drug to group by, and per criterion its id and whether the reviewer expected
-- another answer.
CREATE TABLE case_feedback (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  livemode boolean NOT NULL,
  case_id text NOT NULL,
  rating text NOT NULL CHECK (rating IN ('correct', 'partially_correct', 'incorrect')),
  parts text[] NOT NULL,
  -- The request's drug at the time (`ndc:<ndc>`, else `name:<name in lower case>`) as a keyed hash
  -- (HMAC with the patient reference's key, per account): equal for equal drugs, readable by no one.
  drug_ref text NOT NULL,
  -- { "name", "ndc", "questions": { "<criterion id>": "<question>" } }, sealed with the SecretBox: the
  -- drug as the request named it and the questions of the criteria the feedback named.
  drug_sealed text NOT NULL,
  -- [{ "id", "differs" }]: the criteria the feedback named, without their questions or the answers expected.
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
