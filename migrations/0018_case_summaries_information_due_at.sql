-- When the clinic must answer the payer's information request (`pending_request.due_at`), which the
-- review queue sorts such cases by; null when none is pending. Never PHI.
ALTER TABLE case_summaries ADD COLUMN information_due_at timestamptz;
