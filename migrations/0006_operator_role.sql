-- The platform-wide operator role (codec access for Temporal Web); only the admin CLI grants it.
ALTER TABLE api_keys DROP CONSTRAINT api_keys_roles_known;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_roles_known
  CHECK (roles <@ ARRAY['provider', 'reviewer', 'admin', 'operator']::text[] AND cardinality(roles) > 0);
