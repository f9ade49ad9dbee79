-- Idempotency keys record the request's domain outcome (core/idempotency.ts), no longer an HTTP
-- status and body. Existing rows are not converted: they expire within 24 hours, and the previous
-- release keeps writing the old shape during a rolling update, so the service reads both shapes
-- (a row with response_status is an old one) until response_status is dropped a release later.
ALTER TABLE "idempotency_keys" ADD COLUMN "outcome" jsonb;
