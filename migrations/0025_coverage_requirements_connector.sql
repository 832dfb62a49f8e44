-- The coverage_requirements connector: a Da Vinci CRD (CDS Hooks) service. It authenticates with JWTs
-- signed by a key pair the service generates per connector, not with the auth columns (which stay
-- NULL for it), and its time limit is shorter, a CRD call being on the interactive path.
--
-- The private key (a JWK) is sealed like the other connector secrets; the public keys are kept in
-- plaintext, so the JWKS URL serves them without opening any secret. The previous public key stays
-- published until the next rotation, so JWTs signed just before a rotation still verify; its private
-- half is erased at the rotation. jwks_id is the opaque random name of the connector's JWKS URL:
-- never the account id, so the URL tells nothing and cannot be guessed. Removing the connector
-- erases its keys and its JWKS URL.
ALTER TABLE connector_settings DROP CONSTRAINT connector_settings_kind_check;
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_kind_check
  CHECK (kind IN ('eligibility', 'prior_authorization', 'program_enrollment', 'coverage_requirements'));

ALTER TABLE connector_settings DROP CONSTRAINT connector_settings_timeout_ms_check;
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_timeout_ms_check CHECK (
  CASE kind WHEN 'coverage_requirements' THEN timeout_ms BETWEEN 500 AND 10000
  ELSE timeout_ms BETWEEN 1000 AND 30000 END
);

-- A configured connector has a URL and a time limit, and authentication unless it signs JWTs.
ALTER TABLE connector_settings DROP CONSTRAINT connector_settings_check;
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_configured_check CHECK (
  deleted_at IS NOT NULL
  OR (url IS NOT NULL AND timeout_ms IS NOT NULL AND (auth_type IS NULL) = (kind = 'coverage_requirements'))
);

ALTER TABLE connector_settings ADD COLUMN client_id text;
ALTER TABLE connector_settings ADD COLUMN jwks_id text UNIQUE;
ALTER TABLE connector_settings ADD COLUMN signing_kid text;
ALTER TABLE connector_settings ADD COLUMN signing_key_sealed text;
ALTER TABLE connector_settings ADD COLUMN signing_public_jwk jsonb;
ALTER TABLE connector_settings ADD COLUMN previous_signing_kid text;
ALTER TABLE connector_settings ADD COLUMN previous_signing_public_jwk jsonb;
ALTER TABLE connector_settings ADD COLUMN signing_key_rotated_at timestamptz;

ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_signing_check CHECK (
  (kind = 'coverage_requirements' AND deleted_at IS NULL) = (
    client_id IS NOT NULL AND jwks_id IS NOT NULL AND signing_kid IS NOT NULL
    AND signing_key_sealed IS NOT NULL AND signing_public_jwk IS NOT NULL
  )
);
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_unsigned_check CHECK (
  (kind = 'coverage_requirements' AND deleted_at IS NULL) OR (
    client_id IS NULL AND jwks_id IS NULL AND signing_kid IS NULL AND signing_key_sealed IS NULL
    AND signing_public_jwk IS NULL AND previous_signing_kid IS NULL AND previous_signing_public_jwk IS NULL
    AND signing_key_rotated_at IS NULL
  )
);
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_previous_key_check CHECK (
  (previous_signing_kid IS NULL) = (previous_signing_public_jwk IS NULL)
);
