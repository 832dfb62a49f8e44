-- An authorization keeps only what the signature's mark uses (docs/providers.md, "Signed from the
-- requester's network"; docs/decisions.md, "Prescribers"): the network its request came from, as a
-- keyed hash of the account and the network rather than the address. Migration 0030's address and user
-- agent of that request were never read, so they go, and its networks, written in clear, are cleared:
-- no key reaches SQL to hash them, so signatures are compared only with authorizations started from now on.
ALTER TABLE provider_authorizations
  DROP COLUMN requested_from_address,
  DROP COLUMN requested_user_agent;
UPDATE provider_authorizations SET requested_from_network = NULL WHERE requested_from_network IS NOT NULL;
-- The sweeper clears a network once its authorization is older than the retention.
CREATE INDEX provider_authorizations_requested_network_idx
  ON provider_authorizations (created_at) WHERE requested_from_network IS NOT NULL;
