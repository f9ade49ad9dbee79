CREATE TABLE "inspection_exports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"format" text NOT NULL,
	"filter" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"include_answers" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"rows_written" integer DEFAULT 0 NOT NULL,
	"storage_key" text,
	"byte_size" bigint,
	"file_name" text,
	"error" text,
	"created_by_type" text NOT NULL,
	"created_by_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inspection_exports" ADD CONSTRAINT "inspection_exports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inspection_exports_org_created_idx" ON "inspection_exports" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "inspection_exports_org_active_idx" ON "inspection_exports" USING btree ("organization_id","status") WHERE status in ('QUEUED', 'RUNNING');--> statement-breakpoint
CREATE INDEX "inspection_exports_org_finished_idx" ON "inspection_exports" USING btree ("organization_id","finished_at");