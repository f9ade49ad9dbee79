import type postgres from "postgres";
import { isoText } from "@insp/db";
import { isUuid } from "../errors.ts";
import { filterToSql, scalar, type FilterTarget } from "./filter.ts";
import { GROUP_SCHEMA, MAX_RESULTS, ScimError, scim, versionOf } from "./protocol.ts";
import type { Page, ScimContext } from "./users.ts";

/**
 * SCIM Groups are the organization's groups (the ones employee syncs assign by name or external
 * id); their members are employees (SCIM Users) and membership is the employee's group
 * assignment. Reading them; writing them: group-writes.ts.
 */

type Sql = postgres.Sql | postgres.TransactionSql;

/**
 * What groups can be filtered on (filter.ts): displayName (caseExact: group names are
 * unique and compared exactly), externalId and id (caseExact, RFC 7643 section 3.1), the
 * members' value and display, and meta's dates.
 */
export const GROUP_FILTER: FilterTarget = {
  resourceType: "Group",
  schema: GROUP_SCHEMA,
  attributes: {
    id: scalar("g.id::text", "string", true),
    displayname: scalar("g.name", "string", true),
    externalid: scalar("g.external_id", "string", true),
    members: {
      kind: "complex",
      // The members a group shows: Users (employees not deleted through SCIM).
      multi: {
        exists:
          "select 1 from employee_groups eg join employees m on m.id = eg.employee_id where eg.group_id = g.id and m.organization_id = g.organization_id and m.scim_deleted_at is null",
      },
      sub: { value: scalar("m.id::text"), display: scalar("m.display_name") },
    },
    meta: { kind: "complex", sub: { created: scalar("g.created_at", "dateTime"), lastmodified: scalar("g.updated_at", "dateTime") } },
  },
  extensions: {},
  declares: (path) => {
    try {
      scim().Schemas.Group.definition.attribute(path);
      return true;
    } catch {
      return false;
    }
  },
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

export async function listScimGroups(
  ctx: ScimContext,
  filter: string | undefined,
  page: Page,
): Promise<{ total: number; resources: Record<string, unknown>[] }> {
  const sql = ctx.db.$client;
  const where = filterToSql(sql, filter, GROUP_FILTER);
  const [{ n }] = (await sql`select count(*)::int as n from groups g where g.organization_id = ${ctx.organizationId} and ${where}`) as unknown as [
    { n: number },
  ];
  const rows =
    page.count === 0 ? [] : await selectGroups(sql, ctx.organizationId, where, { offset: page.startIndex - 1, limit: Math.min(page.count, MAX_RESULTS) });
  return { total: n, resources: rows.map((r) => toScimGroup(r, ctx.baseUrl)) };
}
