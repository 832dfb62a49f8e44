-- The sweeper clears the signing address and user agent of authorizations that ended before the
-- retention (docs/providers.md, "Retention") in a statement of its own, whose predicate this index's is,
-- as 0031's index serves the one that clears networks.
CREATE INDEX provider_authorizations_signature_origin_idx
  ON provider_authorizations (updated_at)
  WHERE (signature_client_address IS NOT NULL OR signature_user_agent IS NOT NULL)
    AND status IN ('expired', 'revoked');
