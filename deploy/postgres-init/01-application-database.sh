#!/usr/bin/env bash
# Runs once, on the first start of the PostgreSQL container: the application's database and role,
# separate from Temporal's so each can be backed up, sized and permissioned on its own.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" <<SQL
CREATE ROLE app LOGIN PASSWORD '${APP_DB_PASSWORD}';
CREATE DATABASE healthcare_access OWNER app;
SQL
