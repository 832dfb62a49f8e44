-- A TOTP secret offered at set-up and not yet confirmed with a code, sealed like every stored secret.
-- It belongs to the session that asked for it, so the browser never carries it back to be trusted,
-- and it ends with that session or when the code confirms it.
ALTER TABLE console_sessions ADD COLUMN pending_totp_secret_sealed text;
