CREATE TABLE "template_versions" (
	"organization_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"type" text NOT NULL,
	"asset_type_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "template_versions_template_id_version_pk" PRIMARY KEY("template_id","version")
);
--> statement-breakpoint
CREATE TABLE "inspection_revisions" (
	"organization_id" uuid NOT NULL,
	"inspection_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"status" text NOT NULL,
	"completed_at" timestamp with time zone,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"request_id" text,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inspection_revisions_inspection_id_revision_pk" PRIMARY KEY("inspection_id","revision")
);
--> statement-breakpoint
ALTER TABLE "template_logic_rules" DROP CONSTRAINT "template_logic_rules_template_id_templates_id_fk";
--> statement-breakpoint
ALTER TABLE "template_logic_rules" DROP CONSTRAINT "template_logic_rules_source_question_id_template_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "template_logic_rules" DROP CONSTRAINT "template_logic_rules_target_question_id_template_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "template_question_options" DROP CONSTRAINT "template_question_options_question_id_template_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "template_questions" DROP CONSTRAINT "template_questions_template_id_templates_id_fk";
--> statement-breakpoint
ALTER TABLE "template_questions" DROP CONSTRAINT "template_questions_section_id_template_sections_id_fk";
--> statement-breakpoint
ALTER TABLE "template_sections" DROP CONSTRAINT "template_sections_template_id_templates_id_fk";
--> statement-breakpoint
ALTER TABLE "inspection_answers" DROP CONSTRAINT "inspection_answers_question_id_template_questions_id_fk";
--> statement-breakpoint
DROP INDEX "template_logic_rules_template_idx";--> statement-breakpoint
DROP INDEX "template_question_options_question_idx";--> statement-breakpoint
DROP INDEX "template_questions_template_idx";--> statement-breakpoint
DROP INDEX "template_questions_template_key_key";--> statement-breakpoint
DROP INDEX "template_sections_template_idx";--> statement-breakpoint
-- Existing content is version 1 of its template; the defaults exist only for these rows.
ALTER TABLE "template_logic_rules" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_question_options" ADD COLUMN "template_id" uuid;--> statement-breakpoint
ALTER TABLE "template_question_options" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_questions" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "template_sections" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
UPDATE "template_question_options" o SET "template_id" = q."template_id" FROM "template_questions" q WHERE q."id" = o."question_id";--> statement-breakpoint
ALTER TABLE "template_question_options" ALTER COLUMN "template_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "template_logic_rules" ALTER COLUMN "version" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "template_question_options" ALTER COLUMN "version" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "template_questions" ALTER COLUMN "version" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "template_sections" ALTER COLUMN "version" DROP DEFAULT;--> statement-breakpoint
-- Every existing template has one version: its current content.
INSERT INTO "template_versions" ("organization_id", "template_id", "version", "status", "title", "description", "type", "asset_type_id", "created_by", "created_at", "published_at")
  SELECT "organization_id", "id", "version", CASE WHEN "published_at" IS NULL THEN 'DRAFT' ELSE 'PUBLISHED' END, "title", "description", "type", "asset_type_id", "created_by", "created_at", "published_at" FROM "templates";--> statement-breakpoint
-- Every existing inspection is at revision 1, made by the credential that imported it.
INSERT INTO "inspection_revisions" ("organization_id", "inspection_id", "revision", "status", "completed_at", "actor_type", "actor_id", "request_id", "changes", "created_at")
  SELECT i."organization_id", i."id", 1, i."status", i."completed_at", coalesce(imp."audit"->>'actorType', 'anonymous'), imp."audit"->>'actorId', imp."audit"->>'requestId',
         jsonb_build_object('added', coalesce((SELECT jsonb_agg(a."question_id" ORDER BY a."position") FROM "inspection_answers" a WHERE a."inspection_id" = i."id"), '[]'::jsonb), 'changed', '[]'::jsonb, 'removed', '[]'::jsonb),
         i."created_at"
  FROM "inspections" i LEFT JOIN LATERAL (SELECT "audit" FROM "inspection_imports" x WHERE x."inspection_id" = i."id" ORDER BY x."created_at" LIMIT 1) imp ON true;--> statement-breakpoint
ALTER TABLE "template_logic_rules" DROP CONSTRAINT "template_logic_rules_pkey";--> statement-breakpoint
ALTER TABLE "template_question_options" DROP CONSTRAINT "template_question_options_pkey";--> statement-breakpoint
ALTER TABLE "template_questions" DROP CONSTRAINT "template_questions_pkey";--> statement-breakpoint
ALTER TABLE "template_sections" DROP CONSTRAINT "template_sections_pkey";--> statement-breakpoint
ALTER TABLE "template_logic_rules" ADD CONSTRAINT "template_logic_rules_template_id_version_id_pk" PRIMARY KEY("template_id","version","id");--> statement-breakpoint
ALTER TABLE "template_question_options" ADD CONSTRAINT "template_question_options_template_id_version_id_pk" PRIMARY KEY("template_id","version","id");--> statement-breakpoint
ALTER TABLE "template_questions" ADD CONSTRAINT "template_questions_template_id_version_id_pk" PRIMARY KEY("template_id","version","id");--> statement-breakpoint
ALTER TABLE "template_sections" ADD CONSTRAINT "template_sections_template_id_version_id_pk" PRIMARY KEY("template_id","version","id");--> statement-breakpoint
ALTER TABLE "inspection_answers" ADD COLUMN "revision_from" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "inspection_answers" ADD COLUMN "revision_to" integer;--> statement-breakpoint
ALTER TABLE "inspections" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "media" ADD COLUMN "last_used_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_asset_type_id_asset_types_id_fk" FOREIGN KEY ("asset_type_id") REFERENCES "public"."asset_types"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_versions" ADD CONSTRAINT "template_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_revisions" ADD CONSTRAINT "inspection_revisions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspection_revisions" ADD CONSTRAINT "inspection_revisions_inspection_id_inspections_id_fk" FOREIGN KEY ("inspection_id") REFERENCES "public"."inspections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "template_versions_one_draft_key" ON "template_versions" USING btree ("template_id") WHERE status = 'DRAFT';--> statement-breakpoint
ALTER TABLE "template_logic_rules" ADD CONSTRAINT "template_logic_rules_source_fk" FOREIGN KEY ("template_id","version","source_question_id") REFERENCES "public"."template_questions"("template_id","version","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_logic_rules" ADD CONSTRAINT "template_logic_rules_target_fk" FOREIGN KEY ("template_id","version","target_question_id") REFERENCES "public"."template_questions"("template_id","version","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_question_options" ADD CONSTRAINT "template_question_options_question_fk" FOREIGN KEY ("template_id","version","question_id") REFERENCES "public"."template_questions"("template_id","version","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_questions" ADD CONSTRAINT "template_questions_version_fk" FOREIGN KEY ("template_id","version") REFERENCES "public"."template_versions"("template_id","version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_questions" ADD CONSTRAINT "template_questions_section_fk" FOREIGN KEY ("template_id","version","section_id") REFERENCES "public"."template_sections"("template_id","version","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_sections" ADD CONSTRAINT "template_sections_version_fk" FOREIGN KEY ("template_id","version") REFERENCES "public"."template_versions"("template_id","version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inspections" ADD CONSTRAINT "inspections_template_version_fk" FOREIGN KEY ("template_id","template_version") REFERENCES "public"."template_versions"("template_id","version") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "template_questions_version_key_key" ON "template_questions" USING btree ("template_id","version","key");--> statement-breakpoint
CREATE INDEX "answer_media_media_idx" ON "answer_media" USING btree ("media_id");--> statement-breakpoint
CREATE INDEX "media_last_used_idx" ON "media" USING btree ("last_used_at");