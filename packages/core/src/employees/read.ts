import { and, asc, eq, gte, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { employeeGroups, employeeRoles, employeeSites, employees, groups, roles, sites, users } from "@insp/db/schema";
import { isUuid, notFound } from "../errors.ts";
import type { EmployeeFields, EmployeeStatus } from "./types.ts";

/** Reading employees back (extension): HR systems reconcile against these. */

export interface EmployeeView extends EmployeeFields {
  id: string;
  externalEmployeeId: string;
  userId: string | null;
  accountEnabled: boolean | null;
  roles: string[];
  groups: { id: string; name: string; externalGroupId: string | null; memberRole: string | null }[];
  sites: { id: string; name: string; code: string; siteRole: string | null }[];
  createdAt: string;
  updatedAt: string;
}

const columns = {
  id: employees.id,
  externalEmployeeId: employees.externalEmployeeId,
  status: employees.status,
  firstName: employees.firstName,
  lastName: employees.lastName,
  displayName: employees.displayName,
  email: employees.email,
  phone: employees.phone,
  jobTitle: employees.jobTitle,
  department: employees.department,
  supervisor: employees.supervisor,
  hireDate: employees.hireDate,
  terminationDate: employees.terminationDate,
  metadata: employees.metadata,
  userId: employees.userId,
  accountDisabled: users.disabled,
  createdAt: employees.createdAt,
  updatedAt: employees.updatedAt,
};

const selectEmployees = (db: DbOrTx) => db.select(columns).from(employees).leftJoin(users, eq(users.id, employees.userId)).$dynamic();
type Row = Awaited<ReturnType<typeof selectEmployees>>[number];

/** Roles, groups and sites of many employees: three queries whatever the page size. */
async function withAssignments(db: DbOrTx, organizationId: string, rows: Row[]): Promise<EmployeeView[]> {
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return [];
  const [r, g, s] = await Promise.all([
    db
      .select({ employeeId: employeeRoles.employeeId, name: roles.name })
      .from(employeeRoles)
      .innerJoin(roles, eq(roles.id, employeeRoles.roleId))
      .where(and(eq(employeeRoles.organizationId, organizationId), inArray(employeeRoles.employeeId, ids)))
      .orderBy(asc(roles.name)),
    db
      .select({
        employeeId: employeeGroups.employeeId,
        id: groups.id,
        name: groups.name,
        externalGroupId: groups.externalId,
        memberRole: employeeGroups.memberRole,
      })
      .from(employeeGroups)
      .innerJoin(groups, eq(groups.id, employeeGroups.groupId))
      .where(and(eq(employeeGroups.organizationId, organizationId), inArray(employeeGroups.employeeId, ids)))
      .orderBy(asc(groups.name)),
    db
      .select({ employeeId: employeeSites.employeeId, id: sites.id, name: sites.name, code: sites.code, siteRole: employeeSites.siteRole })
      .from(employeeSites)
      .innerJoin(sites, eq(sites.id, employeeSites.siteId))
      .where(and(eq(employeeSites.organizationId, organizationId), inArray(employeeSites.employeeId, ids)))
      .orderBy(asc(sites.code)),
  ]);
  return rows.map(({ accountDisabled, ...e }) => ({
    ...e,
    status: e.status as EmployeeStatus,
    accountEnabled: e.userId ? !accountDisabled : null,
    roles: r.filter((x) => x.employeeId === e.id).map((x) => x.name),
    groups: g.filter((x) => x.employeeId === e.id).map(({ employeeId: _, ...x }) => x),
    sites: s.filter((x) => x.employeeId === e.id).map(({ employeeId: _, ...x }) => x),
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  }));
}

export interface EmployeeFilter {
  externalEmployeeId?: string;
  status?: EmployeeStatus;
  updatedSince?: string;
  limit: number;
  offset: number;
}

/** A page of the organization's employees, oldest change first (index employees_org_updated_idx). */
export async function listEmployees(db: DbOrTx, organizationId: string, f: EmployeeFilter) {
  const conds: SQL[] = [eq(employees.organizationId, organizationId)];
  if (f.externalEmployeeId !== undefined) conds.push(eq(employees.externalEmployeeId, f.externalEmployeeId));
  if (f.status !== undefined) conds.push(eq(employees.status, f.status));
  if (f.updatedSince !== undefined) conds.push(gte(employees.updatedAt, new Date(f.updatedSince)));
  const where = and(...conds);
  const [rows, [count]] = await Promise.all([
    selectEmployees(db).where(where).orderBy(asc(employees.updatedAt), asc(employees.id)).limit(f.limit).offset(f.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(employees)
      .where(where),
  ]);
  const total = count?.total ?? 0;
  return {
    employees: await withAssignments(db, organizationId, rows),
    pagination: { total, limit: f.limit, offset: f.offset, hasMore: f.offset + rows.length < total },
  };
}

/** The given employees of an organization (GET /api/v1/employees/{id}'s shape), in no particular order. */
export async function employeesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<EmployeeView[]> {
  if (ids.length === 0) return [];
  return withAssignments(db, organizationId, await selectEmployees(db).where(and(eq(employees.organizationId, organizationId), inArray(employees.id, ids))));
}

export async function getEmployee(db: DbOrTx, organizationId: string, id: string): Promise<EmployeeView> {
  if (!isUuid(id)) throw notFound("Employee not found");
  const rows = await selectEmployees(db)
    .where(and(eq(employees.id, id), eq(employees.organizationId, organizationId)))
    .limit(1);
  const [view] = await withAssignments(db, organizationId, rows);
  if (!view) throw notFound("Employee not found");
  return view;
}
