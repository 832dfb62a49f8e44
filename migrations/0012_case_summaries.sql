-- A read model of cases for lists and the review queue, which Temporal visibility cannot order.
-- The case lifecycle writes a row at every status move (workflows/case-lifecycle.ts); Temporal
-- stays the source of truth. Ids, enums, dates and the keyed patient hash only: never PHI.
CREATE TABLE case_summaries (
  case_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  object text NOT NULL,
  status text NOT NULL,
  -- The PatientRef search attribute's value: an HMAC of account and patient id, never the id itself.
  patient_ref text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  due_at timestamptz,
  overdue boolean NOT NULL DEFAULT false,
  -- The case's status_history length when written, so a late write of an older move loses.
  sequence integer NOT NULL
);

-- Lists: one account and case type, newest first, paged by (created_at, case_id).
CREATE INDEX case_summaries_list_idx
  ON case_summaries (account_id, object, created_at DESC, case_id DESC);

-- The review queue: prior authorizations awaiting review, the soonest due first.
CREATE INDEX case_summaries_review_queue_idx
  ON case_summaries (account_id, object, status, due_at, case_id);

CREATE INDEX case_summaries_patient_idx ON case_summaries (account_id, patient_ref)
  WHERE patient_ref IS NOT NULL;
