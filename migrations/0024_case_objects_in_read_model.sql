-- The case object as GET shows it, request included, beside the filter columns: lists are served
-- from it (docs/decisions.md#reads). PHI, so sealed like every such column ("keyId:base64", rotated by
-- keys:reencrypt); the lifecycle rewrites it at every change, and a row whose case predates this
-- column is filled by the worker's backfill. Retention and patient erasure delete the row.
ALTER TABLE case_summaries ADD COLUMN case_sealed text;
