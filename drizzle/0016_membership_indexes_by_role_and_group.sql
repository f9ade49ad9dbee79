-- Role holder counts, a role's delete check and the cascade of its delete look employee_roles up by role_id (the
-- primary key starts with employee_id and cannot serve them); the same for employee_groups by group_id (member
-- counts and lists). A plain CREATE INDEX: migrations run in one transaction (CONCURRENTLY cannot).
CREATE INDEX "employee_groups_group_idx" ON "employee_groups" USING btree ("group_id","organization_id");--> statement-breakpoint
CREATE INDEX "employee_roles_role_idx" ON "employee_roles" USING btree ("role_id","organization_id");
