-- Formularies an account loaded for its live benefit verifications (docs/formularies.md): one per
-- (account, clearinghouse payer id). A 271 answers per service type, not per drug; these rows give
-- the per-drug coverage, prior-authorization flag and cost share. Plan data only, never PHI.
CREATE TABLE formularies (
  account_id text NOT NULL REFERENCES accounts (id),
  -- Upper-cased, so the id a 271 or a connector setting spells in another case still finds it.
  payer_id text NOT NULL,
  row_count integer NOT NULL,
  loaded_at timestamptz NOT NULL,
  -- Who loaded it (the audit trail records the same act with its request id).
  loaded_by_type text NOT NULL,
  loaded_by_id text NOT NULL,
  PRIMARY KEY (account_id, payer_id)
);

-- One row per drug per plan of a formulary. plan_key and drug_name_key are the normalised forms the
-- lookup compares ('' plan_key: every plan of the payer); entry holds the answer fields as loaded.
CREATE TABLE formulary_entries (
  account_id text NOT NULL,
  payer_id text NOT NULL,
  row_number integer NOT NULL,
  plan_key text NOT NULL,
  ndc text,
  drug_name_key text,
  entry jsonb NOT NULL,
  PRIMARY KEY (account_id, payer_id, row_number),
  FOREIGN KEY (account_id, payer_id) REFERENCES formularies (account_id, payer_id) ON DELETE CASCADE
);

-- The lookup of a benefit verification: one payer's rows for a few NDCs or names.
CREATE INDEX formulary_entries_ndc_idx ON formulary_entries (account_id, payer_id, ndc)
  WHERE ndc IS NOT NULL;
CREATE INDEX formulary_entries_name_idx ON formulary_entries (account_id, payer_id, drug_name_key)
  WHERE drug_name_key IS NOT NULL;
