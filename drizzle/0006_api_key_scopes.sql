-- API key scopes (docs/authentication.md, API key scopes). Keys made before scopes existed keep
-- doing everything they did: they get every scope there is now. The default is dropped again, so
-- every key made from now on names its scopes.
ALTER TABLE "api_keys" ADD COLUMN "scopes" text[] NOT NULL DEFAULT ARRAY['templates:read','templates:write','inspections:read','inspections:write','media:read','media:write','webhooks:manage','audit:read','feeds:read','employees:read','sync-sessions:manage']::text[];--> statement-breakpoint
ALTER TABLE "api_keys" ALTER COLUMN "scopes" DROP DEFAULT;
