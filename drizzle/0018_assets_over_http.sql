ALTER TABLE "assets" ADD COLUMN "site_id" uuid;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "status" text DEFAULT 'ACTIVE' NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "fields" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "assets" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_site_fk" FOREIGN KEY ("organization_id","site_id") REFERENCES "public"."sites"("organization_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Codes become unique per organization: a code an older asset of the organization already has gets the asset's id appended (assets made before /api/assets had no such rule).
UPDATE "assets" a SET "code" = a."code" || '-' || a."id"::text WHERE EXISTS (SELECT 1 FROM "assets" b WHERE b."organization_id" = a."organization_id" AND b."code" = a."code" AND b."id" < a."id");--> statement-breakpoint
CREATE UNIQUE INDEX "assets_org_code_key" ON "assets" USING btree ("organization_id","code");--> statement-breakpoint
CREATE INDEX "assets_org_site_idx" ON "assets" USING btree ("organization_id","site_id");