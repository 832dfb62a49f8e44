-- The questionnaire connector: a Da Vinci DTR service's FHIR base, which a live prior authorization
-- asks for the questionnaire its payer's CRD answer named. It authenticates with the auth columns, as
-- the PAS connector does, and its time limit is CRD's, the call being on the same interactive path.
ALTER TABLE connector_settings DROP CONSTRAINT connector_settings_kind_check;
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_kind_check CHECK (
  kind IN ('eligibility', 'prior_authorization', 'program_enrollment', 'coverage_requirements', 'questionnaire')
);

ALTER TABLE connector_settings DROP CONSTRAINT connector_settings_timeout_ms_check;
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_timeout_ms_check CHECK (
  CASE WHEN kind IN ('coverage_requirements', 'questionnaire') THEN timeout_ms BETWEEN 500 AND 10000
  ELSE timeout_ms BETWEEN 1000 AND 30000 END
);
