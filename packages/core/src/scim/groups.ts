import type postgres from "postgres";
import { isoText } from "@insp/db";
import { isUuid } from "../errors.ts";
import { filterToSql, type AttributeMap } from "./filter.ts";
import { GROUP_SCHEMA, MAX_RESULTS, ScimError, versionOf } from "./protocol.ts";
import type { Page, ScimContext } from "./users.ts";

/**
 * SCIM Groups are the organization's groups (the ones employee syncs assign by name or external
 * id); their members are employees (SCIM Users) and membership is the employee's group
 * assignment. Reading them; writing them: group-writes.ts.
 */

type Sql = postgres.Sql | postgres.TransactionSql;

export const GROUP_ATTRIBUTES: AttributeMap = {
  id: { column: "g.id::text", kind: "text" },
  displayname: { column: "g.name", kind: "text" },
  externalid: { column: "g.external_id", kind: "text" },
  "meta.lastmodified": { column: "g.updated_at", kind: "date" },
  "meta.created": { column: "g.created_at", kind: "date" },
  "members.value": { column: "select 1 from employee_groups eg where eg.group_id = g.id and eg.employee_id::text =", kind: "exists" },
  members: { column: "select 1 from employee_groups eg where eg.group_id = g.id and eg.employee_id::text =", kind: "exists" },
};

interface GroupRow {
  id: string;
  name: string;
  external_id: string | null;
  created: string;
  modified: string;
  members: { value: string; display: string | null }[];
}


function selectGroups(sql: Sql, organizationId: string, where: postgres.PendingQuery<postgres.Row[]>, page?: { offset: number; limit: number }) {
  return sql<GroupRow[]>`
    select g.id, g.name, g.external_id, ${sql.unsafe(isoText("g.created_at"))} as created, ${sql.unsafe(isoText("g.updated_at"))} as modified,
      coalesce((select json_agg(json_build_object('value', e.id, 'display', e.display_name) order by e.created_at, e.id)
        from employee_groups eg join employees e on e.id = eg.employee_id
        where eg.group_id = g.id and e.organization_id = ${organizationId} and e.scim_deleted_at is null), '[]') as members
    from groups g where g.organization_id = ${organizationId} and ${where}
    order by g.created_at, g.id
    ${page ? sql`limit ${page.limit} offset ${page.offset}` : sql``}`;
}

function toScimGroup(r: GroupRow, baseUrl: string, withMembers = true): Record<string, unknown> {
  const resource: Record<string, unknown> = {
    schemas: [GROUP_SCHEMA],
    id: r.id,
    ...(r.external_id ? { externalId: r.external_id } : {}),
    displayName: r.name,
    members: r.members.map((m) => ({ value: m.value, $ref: `${baseUrl}/Users/${m.value}`, type: "User", ...(m.display ? { display: m.display } : {}) })),
  };
  resource.meta = { resourceType: "Group", created: r.created, lastModified: r.modified, location: `${baseUrl}/Groups/${r.id}`, version: versionOf(resource) };
  if (!withMembers) delete resource.members;
  return resource;
}

export async function getScimGroup(ctx: ScimContext, id: string, sql: Sql = ctx.db.$client): Promise<Record<string, unknown>> {
  const row = isUuid(id) ? (await selectGroups(sql, ctx.organizationId, sql`g.id = ${id}`))[0] : undefined;
  if (!row) throw new ScimError(404, undefined, `Group ${id} not found`);
  return toScimGroup(row, ctx.baseUrl);
}

export async function listScimGroups(ctx: ScimContext, filter: string | undefined, page: Page): Promise<{ total: number; resources: Record<string, unknown>[] }> {
  const sql = ctx.db.$client;
  const where = filterToSql(sql, filter, GROUP_ATTRIBUTES);
  const [{ n }] = (await sql`select count(*)::int as n from groups g where g.organization_id = ${ctx.organizationId} and ${where}`) as unknown as [{ n: number }];
  const rows = page.count === 0 ? [] : await selectGroups(sql, ctx.organizationId, where, { offset: page.startIndex - 1, limit: Math.min(page.count, MAX_RESULTS) });
  return { total: n, resources: rows.map((r) => toScimGroup(r, ctx.baseUrl)) };
}

/** excludedAttributes=members (Microsoft Entra asks for it): a group without its member list. */
export const withoutMembers = (g: Record<string, unknown>) => {
  const { members: _m, ...rest } = g;
  return rest;
};
