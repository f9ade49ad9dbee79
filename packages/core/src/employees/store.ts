import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { employeeGroups, employeeRoles, employeeSites, employees } from "@insp/db/schema";
import type { AssignmentDiff } from "./rules.ts";
import type { Assignments, EmployeeFields, EmployeeStatus, ResolvedRefs } from "./types.ts";

/** Queries of one employee's transaction: few per employee, since a batch runs 500 of them. */

/**
 * Takes the employee's transaction-scoped advisory locks: 'emp:<org>:<externalEmployeeId>'
 * and, when the sync sets an e-mail, 'email:<lower(email)>' (users are unique by e-mail
 * across organizations), in sorted order so concurrent transactions never deadlock on
 * them (PITFALLS.md). An SQL expression (a count) so it can join another statement;
 * the keys are built in SQL only, so every caller builds them the same way.
 */
export const lockEmployeeSql = (organizationId: SQL, externalEmployeeId: SQL, email: SQL) => sql`(
  select count(pg_advisory_xact_lock(hashtextextended(k, 0)))
  from unnest((select array_agg(k order by k) from unnest(array['emp:' || ${organizationId} || ':' || ${externalEmployeeId}, 'email:' || lower(nullif(${email}, ''))]) as k where k is not null)) as k)`;

export async function lockEmployee(tx: DbOrTx, organizationId: string, externalEmployeeId: string, email: string | null | undefined): Promise<void> {
  await tx.execute(sql`select ${lockEmployeeSql(sql`${organizationId}::text`, sql`${externalEmployeeId}::text`, sql`${email ?? null}::text`)}`);
}

export interface LinkedUser {
  id: string;
  email: string;
  username: string;
  name: string | null;
  disabled: boolean;
}

export interface EmployeeState {
  id: string;
  fields: EmployeeFields;
  userId: string | null;
  user: LinkedUser | null;
  assignments: Assignments;
}

type StateRow = {
  id: string;
  status: EmployeeStatus;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  email: string | null;
  phone: string | null;
  job_title: string | null;
  department: string | null;
  supervisor: EmployeeFields["supervisor"];
  hire_date: string | null;
  termination_date: string | null;
  metadata: EmployeeFields["metadata"];
  user_id: string | null;
  u_email: string | null;
  u_username: string | null;
  u_name: string | null;
  u_disabled: boolean | null;
  roles: [string, string][];
  groups: [string, string | null][];
  sites: [string, string | null][];
};

/** The employee with its account and assignments, in one query; null when new. */
export async function loadEmployeeState(tx: DbOrTx, organizationId: string, externalEmployeeId: string): Promise<EmployeeState | null> {
  const rows = await tx.execute<StateRow>(sql`
    select e.id, e.status, e.first_name, e.last_name, e.display_name, e.email, e.phone, e.job_title, e.department,
      e.supervisor, e.hire_date, e.termination_date, e.metadata, e.user_id,
      u.email as u_email, u.username as u_username, u.name as u_name, u.disabled as u_disabled,
      coalesce((select json_agg(json_build_array(er.role_id, r.name)) from employee_roles er join roles r on r.id = er.role_id where er.employee_id = e.id), '[]') as roles,
      coalesce((select json_agg(json_build_array(eg.group_id, eg.member_role)) from employee_groups eg where eg.employee_id = e.id), '[]') as groups,
      coalesce((select json_agg(json_build_array(es.site_id, es.site_role)) from employee_sites es where es.employee_id = e.id), '[]') as sites
    from employees e left join users u on u.id = e.user_id
    where e.organization_id = ${organizationId} and e.external_employee_id = ${externalEmployeeId}`);
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    userId: r.user_id,
    user: r.user_id ? { id: r.user_id, email: r.u_email!, username: r.u_username!, name: r.u_name, disabled: !!r.u_disabled } : null,
    fields: {
      status: r.status,
      firstName: r.first_name,
      lastName: r.last_name,
      displayName: r.display_name,
      email: r.email,
      phone: r.phone,
      jobTitle: r.job_title,
      department: r.department,
      supervisor: r.supervisor,
      hireDate: r.hire_date,
      terminationDate: r.termination_date,
      metadata: r.metadata,
    },
    assignments: { roles: new Map(r.roles), groups: new Map(r.groups), sites: new Map(r.sites) },
  };
}

export const emptyAssignments = (): Assignments => ({ roles: new Map(), groups: new Map(), sites: new Map() });

/** Roles, groups and sites of the organization named by the employee, in one query. */
export async function resolveRefs(tx: DbOrTx, organizationId: string, refs: { roleNames: string[]; groupNames: string[]; groupExternalIds: string[]; siteIds: string[] }): Promise<ResolvedRefs> {
  const out: ResolvedRefs = { rolesByName: new Map(), groupsByName: new Map(), groupsByExternalId: new Map(), sites: new Set() };
  if (!refs.roleNames.length && !refs.groupNames.length && !refs.groupExternalIds.length && !refs.siteIds.length) return out;
  const rows = await tx.execute<{ kind: string; key: string; id: string }>(sql`
    select 'role' as kind, name as key, id from roles where organization_id = ${organizationId} and name = any(${sql.param(refs.roleNames)}::text[])
    union all
    select 'group', name, id from groups where organization_id = ${organizationId} and name = any(${sql.param(refs.groupNames)}::text[])
    union all
    select 'groupExt', external_id, id from groups where organization_id = ${organizationId} and external_id = any(${sql.param(refs.groupExternalIds)}::text[])
    union all
    select 'site', id::text, id from sites where organization_id = ${organizationId} and id = any(${sql.param(refs.siteIds)}::uuid[])`);
  for (const r of rows) {
    if (r.kind === "role") out.rolesByName.set(r.key, r.id);
    else if (r.kind === "group") out.groupsByName.set(r.key, r.id);
    else if (r.kind === "groupExt") out.groupsByExternalId.set(r.key, r.id);
    else out.sites.add(r.id);
  }
  return out;
}

export interface EmailHolders {
  /** Another employee of the organization already has this e-mail. */
  otherEmployee: boolean;
  /** The user with this e-mail (any organization), the employee linked to it, and whether it is an administrator by flag. */
  userByEmail: { id: string; organizationId: string; employeeId: string | null; isAdmin: boolean } | null;
  /** A user of the organization (other than `ownUserId`) with this username. */
  usernameTaken: boolean;
}

/** Who already uses an e-mail (and username), in one query. */
export async function findEmailHolders(
  tx: DbOrTx,
  q: { organizationId: string; externalEmployeeId: string; email: string; username: string | null; ownUserId: string | null },
): Promise<EmailHolders> {
  const rows = await tx.execute<{ kind: string; id: string; organization_id: string; employee_id: string | null; is_admin: boolean }>(sql`
    select 'employee' as kind, e.id, e.organization_id, null::uuid as employee_id, false as is_admin from employees e
      where e.organization_id = ${q.organizationId} and lower(e.email) = lower(${q.email}) and e.external_employee_id <> ${q.externalEmployeeId}
    union all
    select 'user', u.id, u.organization_id, (select e2.id from employees e2 where e2.user_id = u.id), u.is_admin from users u
      where lower(u.email) = lower(${q.email})
    union all
    select 'username', u.id, u.organization_id, null, false from users u
      where ${q.username}::text is not null and u.organization_id = ${q.organizationId} and lower(u.username) = lower(${q.username}::text)
        and lower(u.email) <> lower(${q.email}) and u.id is distinct from ${q.ownUserId}::uuid`);
  const user = rows.find((r) => r.kind === "user");
  return {
    otherEmployee: rows.some((r) => r.kind === "employee"),
    userByEmail: user ? { id: user.id, organizationId: user.organization_id, employeeId: user.employee_id, isAdmin: user.is_admin } : null,
    usernameTaken: rows.some((r) => r.kind === "username"),
  };
}

export async function insertEmployee(tx: DbOrTx, organizationId: string, id: string, externalEmployeeId: string, fields: EmployeeFields, userId: string | null, requestId: string): Promise<void> {
  await tx.insert(employees).values({ id, organizationId, externalEmployeeId, ...fields, userId, lastSyncRequestId: requestId });
}

/** Writes the columns and bumps updatedAt; `lastSyncRequestId` is the last request that changed the employee. */
export async function updateEmployee(tx: DbOrTx, organizationId: string, id: string, fields: EmployeeFields, userId: string | null, requestId: string): Promise<void> {
  await tx
    .update(employees)
    .set({ ...fields, userId, lastSyncRequestId: requestId, updatedAt: sql`now()` })
    .where(and(eq(employees.id, id), eq(employees.organizationId, organizationId)));
}

/**
 * Applies a diff of role, group and site assignments: one statement per kind of
 * change, none when equal. The statements are issued together (pipelined) and run in
 * the order issued.
 */
export async function applyAssignmentDiff(tx: DbOrTx, organizationId: string, employeeId: string, d: AssignmentDiff): Promise<void> {
  const q: PromiseLike<unknown>[] = [];
  const mine = <T extends typeof employeeRoles | typeof employeeGroups | typeof employeeSites>(t: T) => and(eq(t.employeeId, employeeId), eq(t.organizationId, organizationId));
  if (d.removeRoles.length) q.push(tx.delete(employeeRoles).where(and(mine(employeeRoles), inArray(employeeRoles.roleId, d.removeRoles))));
  if (d.removeGroups.length) q.push(tx.delete(employeeGroups).where(and(mine(employeeGroups), inArray(employeeGroups.groupId, d.removeGroups))));
  if (d.removeSites.length) q.push(tx.delete(employeeSites).where(and(mine(employeeSites), inArray(employeeSites.siteId, d.removeSites))));
  if (d.addRoles.length) q.push(tx.insert(employeeRoles).values(d.addRoles.map((roleId) => ({ employeeId, roleId, organizationId }))));
  if (d.putGroups.size) {
    q.push(
      tx
      .insert(employeeGroups)
      .values([...d.putGroups].map(([groupId, memberRole]) => ({ employeeId, groupId, organizationId, memberRole })))
      .onConflictDoUpdate({ target: [employeeGroups.employeeId, employeeGroups.groupId], set: { memberRole: sql`excluded.member_role` } }),
    );
  }
  if (d.putSites.size) {
    q.push(
      tx
      .insert(employeeSites)
      .values([...d.putSites].map(([siteId, siteRole]) => ({ employeeId, siteId, organizationId, siteRole })))
      .onConflictDoUpdate({ target: [employeeSites.employeeId, employeeSites.siteId], set: { siteRole: sql`excluded.site_role` } }),
    );
  }
  await Promise.all(q);
}
