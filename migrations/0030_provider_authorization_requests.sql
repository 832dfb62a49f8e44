-- Where a provider authorization was asked for, and whether its signature came from there
-- (docs/providers.md, "Signed from the requester's network"): the client address and user agent of the
-- request that started it, the network that address stands for (its IPv4 address, an IPv6 /64), and,
-- once signed, whether the signature came from a network any of the account's authorizations was
-- started from. A clinic that reads the signing link (its own SMTP, the test-mode outbox) could sign
-- in the prescriber's name; such a signature is marked, never refused. Rows started before this
-- migration have none of it.
ALTER TABLE provider_authorizations
  ADD COLUMN requested_from_address text,
  ADD COLUMN requested_user_agent text,
  ADD COLUMN requested_from_network text,
  ADD COLUMN signed_from_requester_network boolean;
