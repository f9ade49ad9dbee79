CREATE TABLE "occurrences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"schedule_id" uuid,
	"target_key" text NOT NULL,
	"site_id" uuid,
	"asset_id" uuid,
	"template_id" uuid,
	"template_version" integer,
	"start_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"state" text DEFAULT 'UPCOMING' NOT NULL,
	"must_complete" text DEFAULT 'ONE' NOT NULL,
	"assignee_user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"completed_by_user_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"needs_assignee" boolean DEFAULT false NOT NULL,
	"opened_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"inspection_id" uuid,
	"completed_at" timestamp with time zone,
	"missed_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"template_id" uuid NOT NULL,
	"rrule" text,
	"after_completion_days" integer,
	"time_zone" text NOT NULL,
	"start_date" text NOT NULL,
	"start_time" text NOT NULL,
	"due_within_minutes" integer NOT NULL,
	"assignees" jsonb NOT NULL,
	"target" jsonb NOT NULL,
	"must_complete" text DEFAULT 'ONE' NOT NULL,
	"can_late_submit" boolean DEFAULT false NOT NULL,
	"reminder_minutes_before" integer,
	"leaver_rule" jsonb NOT NULL,
	"paused_at" timestamp with time zone,
	"materialized_until" timestamp with time zone,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "occurrences" ADD CONSTRAINT "occurrences_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "occurrences_schedule_target_start_key" ON "occurrences" USING btree ("schedule_id","target_key","start_at");--> statement-breakpoint
CREATE INDEX "occurrences_org_due_idx" ON "occurrences" USING btree ("organization_id","due_at","id");--> statement-breakpoint
CREATE INDEX "occurrences_assignees_idx" ON "occurrences" USING gin ("assignee_user_ids");--> statement-breakpoint
CREATE INDEX "occurrences_upcoming_idx" ON "occurrences" USING btree ("start_at") WHERE state = 'UPCOMING';--> statement-breakpoint
CREATE INDEX "occurrences_open_due_idx" ON "occurrences" USING btree ("due_at") WHERE state = 'OPEN';--> statement-breakpoint
CREATE INDEX "schedules_org_created_idx" ON "schedules" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "schedules_materialize_idx" ON "schedules" USING btree ("materialized_until") WHERE paused_at is null;--> statement-breakpoint
-- Keys that held every scope there was (as 0014 did for the directory's) may read and change schedules too.
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'schedules:read') WHERE "scopes" @> ARRAY['templates:read','templates:write','inspections:read','inspections:write','actions:read','actions:write','media:read','media:write','webhooks:manage','audit:read','feeds:read','employees:read','sync-sessions:manage','directory:read','directory:write']::text[];--> statement-breakpoint
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'schedules:write') WHERE "scopes" @> ARRAY['templates:read','templates:write','inspections:read','inspections:write','actions:read','actions:write','media:read','media:write','webhooks:manage','audit:read','feeds:read','employees:read','sync-sessions:manage','directory:read','directory:write']::text[];
