CREATE TABLE "media_trash" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_session_members" (
	"session_id" uuid NOT NULL,
	"external_employee_id" text NOT NULL,
	CONSTRAINT "sync_session_members_session_id_external_employee_id_pk" PRIMARY KEY("session_id","external_employee_id")
);
--> statement-breakpoint
CREATE TABLE "sync_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"client_id" text,
	"status" text DEFAULT 'open' NOT NULL,
	"scope" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"batches" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"committed_at" timestamp with time zone,
	"deactivation_request_id" uuid,
	"outcome" jsonb,
	"decided_by" jsonb
);
--> statement-breakpoint
ALTER TABLE "media_trash" ADD CONSTRAINT "media_trash_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_session_members" ADD CONSTRAINT "sync_session_members_session_id_sync_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sync_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_sessions" ADD CONSTRAINT "sync_sessions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sync_sessions_org_created_idx" ON "sync_sessions" USING btree ("organization_id","created_at");