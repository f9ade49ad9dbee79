ALTER TABLE "groups" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "groups" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "parent_site_id" uuid;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sites" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "sites_org_id_key" ON "sites" USING btree ("organization_id","id");--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_parent_fk" FOREIGN KEY ("organization_id","parent_site_id") REFERENCES "public"."sites"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sites_org_parent_idx" ON "sites" USING btree ("organization_id","parent_site_id");--> statement-breakpoint
-- Hand-written: keys made with every scope there was (the default, the demo's key) keep holding every scope; other keys get none of the new ones.
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'directory:read') WHERE "scopes" @> ARRAY['templates:read','templates:write','inspections:read','inspections:write','actions:read','actions:write','media:read','media:write','webhooks:manage','audit:read','feeds:read','employees:read','sync-sessions:manage']::text[];--> statement-breakpoint
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'directory:write') WHERE "scopes" @> ARRAY['templates:read','templates:write','inspections:read','inspections:write','actions:read','actions:write','media:read','media:write','webhooks:manage','audit:read','feeds:read','employees:read','sync-sessions:manage']::text[];
