-- Review states and comments of inspections (docs/review.md) and cached PDF reports (docs/reports.md).
-- Every existing inspection starts RECEIVED, as a new import does.
CREATE TABLE "inspection_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"inspection_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"review_state" text,
	"body" text NOT NULL,
	"author_type" text NOT NULL,
	"author_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inspection_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"inspection_id" uuid NOT NULL,
	"cache_key" text NOT NULL,
	"status" text DEFAULT 'QUEUED' NOT NULL,
	"storage_key" text,
	"byte_size" bigint,
	"pages" integer,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "review_state" text DEFAULT 'RECEIVED' NOT NULL;--> statement-breakpoint
ALTER TABLE "inspection_comments" ADD CONSTRAINT "inspection_comments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_comments" ADD CONSTRAINT "inspection_comments_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_reports" ADD CONSTRAINT "inspection_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_reports" ADD CONSTRAINT "inspection_reports_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inspection_comments_org_inspection_idx" ON "inspection_comments" USING btree ("organization_id","inspection_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inspection_reports_org_inspection_key" ON "inspection_reports" USING btree ("organization_id","inspection_id","cache_key");--> statement-breakpoint
CREATE INDEX "inspection_reports_created_idx" ON "inspection_reports" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "inspections_org_review_created_idx" ON "inspections" USING btree ("organization_id","review_state","created_at","id");