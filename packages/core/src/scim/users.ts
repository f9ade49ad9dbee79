import type postgres from "postgres";
import { isoText, type Db } from "@insp/db";
import { isUuid } from "../errors.ts";
import { filterToSql, type AttributeMap } from "./filter.ts";
import { ENTERPRISE, MAX_RESULTS, ScimError, USER_SCHEMA, versionOf } from "./protocol.ts";

/**
 * SCIM Users are the organization's employees with their accounts: `id` is the employee id,
 * `externalId` its externalEmployeeId, `userName` its account's username, `active` its status
 * ACTIVE, the enterprise extension its department, manager and employeeNumber (kept in
 * metadata.employeeNumber). Employees deleted through SCIM are not resources any more.
 */

export interface ScimContext {
  db: Db;
  organizationId: string;
  /** The OAuth client calling (audit and the employees' last sync request). */
  clientId: string | null;
  requestId: string | null;
  /** https://host/scim/v2: meta.location and Location headers. */
  baseUrl: string;
}

const USER_NAME = "coalesce(u.username, e.email, e.external_employee_id)";

/** Attributes users can be filtered on (filter.ts). */
export const USER_ATTRIBUTES: AttributeMap = {
  id: { column: "e.id::text", kind: "text" },
  username: { column: USER_NAME, kind: "text" },
  externalid: { column: "e.external_employee_id", kind: "text" },
  displayname: { column: "e.display_name", kind: "text" },
  "name.givenname": { column: "e.first_name", kind: "text" },
  "name.familyname": { column: "e.last_name", kind: "text" },
  title: { column: "e.job_title", kind: "text" },
  active: { column: "(e.status = 'ACTIVE')", kind: "bool" },
  emails: { column: "e.email", kind: "text" },
  "emails.value": { column: "e.email", kind: "text" },
  "meta.lastmodified": { column: "e.updated_at", kind: "date" },
  "meta.created": { column: "e.created_at", kind: "date" },
  [`${ENTERPRISE}:department`.toLowerCase()]: { column: "e.department", kind: "text" },
  [`${ENTERPRISE}:employeenumber`.toLowerCase()]: { column: "e.metadata->>'employeeNumber'", kind: "text" },
};

export interface UserRow {
  id: string;
  external_employee_id: string;
  status: string;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  email: string | null;
  phone: string | null;
  job_title: string | null;
  department: string | null;
  metadata: Record<string, unknown> | null;
  manager_id: string | null;
  manager_name: string | null;
  user_name: string;
  created: string;
  modified: string;
  groups: { value: string; display: string }[];
}


type Sql = postgres.Sql | postgres.TransactionSql;

function selectUsers(sql: Sql, organizationId: string, where: postgres.PendingQuery<postgres.Row[]>, page?: { offset: number; limit: number }) {
  return sql<UserRow[]>`
    select e.id, e.external_employee_id, e.status, e.first_name, e.last_name, e.display_name, e.email, e.phone, e.job_title, e.department,
      e.metadata, e.manager_id, m.display_name as manager_name, ${sql.unsafe(USER_NAME)} as user_name,
      ${sql.unsafe(isoText("e.created_at"))} as created, ${sql.unsafe(isoText("e.updated_at"))} as modified,
      coalesce((select json_agg(json_build_object('value', g.id, 'display', g.name) order by g.name, g.id)
        from employee_groups eg join groups g on g.id = eg.group_id where eg.employee_id = e.id and g.organization_id = ${organizationId}), '[]') as groups
    from employees e
    left join users u on u.id = e.user_id and u.organization_id = ${organizationId}
    left join employees m on m.id = e.manager_id and m.organization_id = ${organizationId}
    where e.organization_id = ${organizationId} and e.scim_deleted_at is null and ${where}
    order by e.created_at, e.id
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;
}

/** The SCIM representation of an employee (RFC 7643 section 4.1, with the enterprise extension). */
export function toScimUser(r: UserRow, baseUrl: string): Record<string, unknown> {
  const employeeNumber = typeof r.metadata?.employeeNumber === "string" ? r.metadata.employeeNumber : undefined;
  const enterprise = {
    ...(r.department ? { department: r.department } : {}),
    ...(employeeNumber ? { employeeNumber } : {}),
    ...(r.manager_id ? { manager: { value: r.manager_id, $ref: `${baseUrl}/Users/${r.manager_id}`, ...(r.manager_name ? { displayName: r.manager_name } : {}) } } : {}),
  };
  const name = { ...(r.first_name ? { givenName: r.first_name } : {}), ...(r.last_name ? { familyName: r.last_name } : {}) };
  const resource: Record<string, unknown> = {
    schemas: Object.keys(enterprise).length ? [USER_SCHEMA, ENTERPRISE] : [USER_SCHEMA],
    id: r.id,
    externalId: r.external_employee_id,
    userName: r.user_name,
    ...(Object.keys(name).length ? { name: { ...name, formatted: [r.first_name, r.last_name].filter(Boolean).join(" ") } } : {}),
    ...(r.display_name ? { displayName: r.display_name } : {}),
    ...(r.job_title ? { title: r.job_title } : {}),
    active: r.status === "ACTIVE",
    emails: r.email ? [{ value: r.email, type: "work", primary: true }] : [],
    ...(r.phone ? { phoneNumbers: [{ value: r.phone, type: "work" }] } : {}),
    groups: r.groups.map((g) => ({ value: g.value, display: g.display, $ref: `${baseUrl}/Groups/${g.value}`, type: "direct" })),
    ...(Object.keys(enterprise).length ? { [ENTERPRISE]: enterprise } : {}),
  };
  resource.meta = { resourceType: "User", created: r.created, lastModified: r.modified, location: `${baseUrl}/Users/${r.id}`, version: versionOf(resource) };
  return resource;
}

/** One user of the organization (404 for an unknown, malformed, deleted or another organization's id); `sql`: a write's transaction. */
export async function getScimUser(ctx: ScimContext, id: string, sql: Sql = ctx.db.$client): Promise<Record<string, unknown>> {
  const row = isUuid(id) ? (await selectUsers(sql, ctx.organizationId, sql`e.id = ${id}`))[0] : undefined;
  if (!row) throw new ScimError(404, undefined, `User ${id} not found`);
  return toScimUser(row, ctx.baseUrl);
}

export interface Page {
  startIndex: number;
  count: number;
}

/** A page of users matching `filter` (in creation order, the same on every page), and how many match in all. */
export async function listScimUsers(ctx: ScimContext, filter: string | undefined, page: Page): Promise<{ total: number; resources: Record<string, unknown>[] }> {
  const sql = ctx.db.$client;
  const where = filterToSql(sql, filter, USER_ATTRIBUTES);
  const [{ n }] = (await sql`
    select count(*)::int as n from employees e left join users u on u.id = e.user_id and u.organization_id = ${ctx.organizationId}
    where e.organization_id = ${ctx.organizationId} and e.scim_deleted_at is null and ${where}`) as unknown as [{ n: number }];
  const rows = page.count === 0 ? [] : await selectUsers(sql, ctx.organizationId, where, { offset: page.startIndex - 1, limit: Math.min(page.count, MAX_RESULTS) });
  return { total: n, resources: rows.map((r) => toScimUser(r, ctx.baseUrl)) };
}
