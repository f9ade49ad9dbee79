-- Scores and flags on options and inspections, answer flags, location, and corrective actions
-- (docs/scoring.md, docs/actions.md). Existing inspections were made from templates without scores or
-- flags, so 0 / 0 / null / 0 is exactly what they compute to.
CREATE TABLE "corrective_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"priority" text DEFAULT 'MEDIUM' NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"assignee_id" uuid,
	"due_at" timestamp with time zone,
	"inspection_id" uuid,
	"question_id" uuid,
	"created_by_type" text NOT NULL,
	"created_by_id" text,
	"completed_at" timestamp with time zone,
	"completed_by_type" text,
	"completed_by_id" text,
	"overdue_notified_at" timestamp with time zone,
	"revision" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "template_question_options" ADD COLUMN "score" double precision;--> statement-breakpoint
ALTER TABLE "template_question_options" ADD COLUMN "score_not_applicable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "template_question_options" ADD COLUMN "flagged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "inspection_answers" ADD COLUMN "flagged" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "max_score" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "score_percentage" double precision;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "flagged_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "location_accuracy_meters" double precision;--> statement-breakpoint
ALTER TABLE "corrective_actions" ADD CONSTRAINT "corrective_actions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrective_actions" ADD CONSTRAINT "corrective_actions_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "corrective_actions" ADD CONSTRAINT "corrective_actions_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "corrective_actions_org_created_idx" ON "corrective_actions" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "corrective_actions_org_inspection_idx" ON "corrective_actions" USING btree ("organization_id","inspection_id","question_id");--> statement-breakpoint
CREATE INDEX "corrective_actions_org_assignee_idx" ON "corrective_actions" USING btree ("organization_id","assignee_id","created_at","id");--> statement-breakpoint
CREATE INDEX "corrective_actions_org_status_idx" ON "corrective_actions" USING btree ("organization_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "corrective_actions_overdue_idx" ON "corrective_actions" USING btree ("due_at") WHERE status in ('OPEN', 'IN_PROGRESS') and overdue_notified_at is null and due_at is not null;--> statement-breakpoint
CREATE INDEX "inspections_org_flagged_created_idx" ON "inspections" USING btree ("organization_id","created_at","id") WHERE flagged_count > 0;--> statement-breakpoint
CREATE INDEX "inspections_org_score_idx" ON "inspections" USING btree ("organization_id","score_percentage");--> statement-breakpoint
CREATE INDEX "inspections_org_location_idx" ON "inspections" USING btree ("organization_id","longitude","latitude") WHERE longitude is not null;--> statement-breakpoint
-- Corrective actions are part of inspections: keys that may read (write) inspections may read (write) them.
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'actions:read') WHERE 'inspections:read' = ANY("scopes");--> statement-breakpoint
UPDATE "api_keys" SET "scopes" = array_append("scopes", 'actions:write') WHERE 'inspections:write' = ANY("scopes");
