import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "./auth.ts";
import { createdAt, id, orgColumn, orgId, ts, updatedAt } from "./columns.ts";
import { groups, roles, sites } from "./directory.ts";

export const employees = pgTable(
  "employees",
  {
    id: id(),
    organizationId: orgId(),
    externalEmployeeId: text("external_employee_id").notNull(),
    /** ACTIVE, INACTIVE, TERMINATED */
    status: text("status").notNull().default("ACTIVE"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    displayName: text("display_name"),
    email: text("email"),
    phone: text("phone"),
    jobTitle: text("job_title"),
    department: text("department"),
    supervisor: jsonb("supervisor").$type<{ name?: string; email?: string } | null>(),
    /** ISO 8601 as sent (date or date-time). */
    hireDate: text("hire_date"),
    terminationDate: text("termination_date"),
    metadata: jsonb("metadata").$type<Record<string, unknown> | null>(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    lastSyncRequestId: uuid("last_sync_request_id"),
    /** SCIM's enterprise manager: another employee (HR syncs name a supervisor by name and e-mail instead). */
    managerId: uuid("manager_id").references((): AnyPgColumn => employees.id, { onDelete: "set null" }),
    /** Deleted through SCIM (DELETE /scim/v2/Users/{id}): TERMINATED, and no longer a SCIM resource. */
    scimDeletedAt: ts("scim_deleted_at"),
    /**
     * What an identity provider set through SCIM that the employee has no column for: the
     * name's formatted form, middle name and honorifics, nickName, profileUrl, userType,
     * preferredLanguage, locale, timezone, the type and primary flag of the e-mail and phone
     * number kept, the enterprise costCenter, organization and division (docs/scim.md). Only
     * SCIM writes it; the HR sync leaves it alone.
     */
    scimAttributes: jsonb("scim_attributes").$type<Record<string, unknown> | null>(),
    /**
     * When the employee's personal data was erased (POST /api/v1/employees/{id}/erase,
     * docs/erasure.md): names, e-mail, phone, supervisor, metadata and externalEmployeeId hold a
     * pseudonym or nothing since. Null: never erased.
     */
    erasedAt: ts("erased_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("employees_org_external_id_key").on(t.organizationId, t.externalEmployeeId),
    uniqueIndex("employees_org_email_key").on(t.organizationId, sql`lower(${t.email})`),
    uniqueIndex("employees_user_key").on(t.userId),
    index("employees_org_updated_idx").on(t.organizationId, t.updatedAt, t.id),
  ],
);

const employeeRef = () =>
  uuid("employee_id")
    .notNull()
    .references(() => employees.id, { onDelete: "cascade" });

export const employeeRoles = pgTable(
  "employee_roles",
  {
    employeeId: employeeRef(),
    roleId: uuid("role_id")
      .notNull()
      .references(() => roles.id, { onDelete: "cascade" }),
    organizationId: orgColumn(),
  },
  // By role: a role's holder count, the delete check and the cascade of a role's delete look rows up
  // by role_id, which the primary key (employee first) cannot serve. role_id first, unlike the
  // house rule (organization_id first): role ids are unique across organizations, and the
  // foreign key's cascade asks by role_id alone.
  (t) => [primaryKey({ columns: [t.employeeId, t.roleId] }), index("employee_roles_role_idx").on(t.roleId, t.organizationId)],
);

export const employeeGroups = pgTable(
  "employee_groups",
  {
    employeeId: employeeRef(),
    groupId: uuid("group_id")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    organizationId: orgColumn(),
    memberRole: text("member_role"),
  },
  // By group (member counts and lists, the cascade of a group's delete): as employee_roles_role_idx.
  (t) => [primaryKey({ columns: [t.employeeId, t.groupId] }), index("employee_groups_group_idx").on(t.groupId, t.organizationId)],
);

export const employeeSites = pgTable(
  "employee_sites",
  {
    employeeId: employeeRef(),
    siteId: uuid("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    organizationId: orgColumn(),
    siteRole: text("site_role"),
  },
  (t) => [primaryKey({ columns: [t.employeeId, t.siteId] })],
);
