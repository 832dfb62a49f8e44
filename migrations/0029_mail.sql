-- The mail connector: the SMTP server live-mode mail goes through (docs/providers.md). Its address
-- is kept in `url` as `smtps://host:port` (TLS from the start) or `smtp://host:port` (STARTTLS,
-- required: the service never sends in clear), its credentials in the basic auth columns, the
-- password sealed like every connector secret. `mail_from` is the sender address; `tls_ca`, a PEM
-- certificate the server's must chain to instead of the public authorities (a private relay, tests).
ALTER TABLE connector_settings DROP CONSTRAINT connector_settings_kind_check;
ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_kind_check CHECK (
  kind IN ('eligibility', 'prior_authorization', 'program_enrollment', 'coverage_requirements', 'questionnaire',
           'mail')
);

ALTER TABLE connector_settings ADD COLUMN mail_from text;
ALTER TABLE connector_settings ADD COLUMN tls_ca text;

ALTER TABLE connector_settings ADD CONSTRAINT connector_settings_mail_check CHECK (
  (kind = 'mail' AND deleted_at IS NULL) = (mail_from IS NOT NULL)
  AND (tls_ca IS NULL OR (kind = 'mail' AND deleted_at IS NULL))
  AND (kind <> 'mail' OR url IS NULL OR url ~ '^smtps?://')
  AND (kind <> 'mail' OR auth_type IS NULL OR auth_type IN ('none', 'basic'))
);

-- Mail sent in test mode (and in every mode of a local install), which the account's admins read in
-- the console instead of an SMTP server delivering it. The message (recipient, subject, text) is
-- sealed: it holds a person's address and a signing link, which is a secret. One row per idempotency
-- key, so an activity's retry records nothing twice. Rows older than 30 days are purged.
CREATE TABLE mail_outbox (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  livemode boolean NOT NULL,
  purpose text NOT NULL,
  object_id text,
  message_sealed text NOT NULL,
  idempotency_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, idempotency_key)
);
CREATE INDEX mail_outbox_listing ON mail_outbox (account_id, livemode, created_at DESC, id DESC);
CREATE INDEX mail_outbox_age ON mail_outbox (created_at);
