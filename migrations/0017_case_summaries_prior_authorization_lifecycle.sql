-- The prior authorization lifecycle in the case summaries (docs/workflows.md): the internal review
-- target the review queue sorts and marks by, whether the payer waits for an information request
-- (the queue lists those too), and the outcome's result (an enum: approved, partially_approved, …).
-- Never PHI.
ALTER TABLE case_summaries
  ADD COLUMN review_due_at timestamptz,
  ADD COLUMN information_requested boolean NOT NULL DEFAULT false,
  ADD COLUMN outcome_result text;
