ALTER TABLE "employee_groups" DROP CONSTRAINT "employee_groups_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "employee_roles" DROP CONSTRAINT "employee_roles_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "employee_sites" DROP CONSTRAINT "employee_sites_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "change_events" DROP CONSTRAINT "change_events_organization_id_organizations_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_organization_id_organizations_id_fk";
