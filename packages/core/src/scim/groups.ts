import type postgres from "postgres";
import { PG, pgErrorCode } from "@insp/db";
import { isUuid } from "../errors.ts";
import { filterToSql, type AttributeMap } from "./filter.ts";
import { GROUP_SCHEMA, MAX_RESULTS, ScimError, asScimError, checkIfMatch, normalizePatch, normalizeResource, scim, versionOf } from "./protocol.ts";
import type { Page, ScimContext } from "./users.ts";

/**
 * SCIM Groups are the organization's groups (the ones employee syncs assign by name or external
 * id); their members are employees (SCIM Users) and membership is the employee's group
 * assignment. Group writes run in the API, one transaction per request, under the group's row
 * lock; each member added or removed is an employee change (change log: updated) and the group
 * gets one audit entry.
 */

type Sql = postgres.Sql | postgres.TransactionSql;
type Tx = postgres.TransactionSql;

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

const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

function selectGroups(sql: Sql, organizationId: string, where: postgres.PendingQuery<postgres.Row[]>, page?: { offset: number; limit: number }) {
  return sql<GroupRow[]>`
    select g.id, g.name, g.external_id, ${sql.unsafe(ISO("g.created_at"))} as created, ${sql.unsafe(ISO("g.updated_at"))} as modified,
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

interface GroupValues {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/** A Group body validated and coerced by scimmy's schema. */
function parseGroup(body: unknown): GroupValues {
  let g: { displayName?: string; externalId?: string; members?: { value?: string; type?: string }[] };
  try {
    g = JSON.parse(JSON.stringify(new (scim().Schemas.Group)(normalizeResource(body), "in")));
  } catch (err) {
    throw asScimError(err) ?? err;
  }
  const displayName = g.displayName?.trim();
  if (!displayName) throw new ScimError(400, "invalidValue", "displayName is required");
  if (displayName.length > 255) throw new ScimError(400, "invalidValue", "displayName must be at most 255 characters");
  if ((g.externalId?.length ?? 0) > 255) throw new ScimError(400, "invalidValue", "externalId must be at most 255 characters");
  const nested = (g.members ?? []).filter((m) => m.type && m.type !== "User");
  if (nested.length) throw new ScimError(400, "invalidValue", "Groups contain Users only (no nested groups)");
  return { displayName, externalId: g.externalId?.trim() || null, members: [...new Set((g.members ?? []).map((m) => String(m.value)))] };
}

/** The group's audit entry, in the write's transaction: the OAuth client and the request id. */
const audit = (sql: Tx, ctx: ScimContext, action: string, groupId: string, changedFields: string[]) =>
  sql`insert into audit_log (organization_id, actor_type, actor_id, action, resource_type, resource_id, changed_fields, request_id)
    values (${ctx.organizationId}, 'oauth_client', ${ctx.clientId}, ${action}, 'group', ${groupId}, ${changedFields}::text[], ${ctx.requestId})`;

/**
 * Writes a group's name, external id and members: unknown members are a 400 naming them, a
 * name or external id another group has a 409 uniqueness. Members added and removed are
 * employee changes (change log `updated`, their updatedAt moves); the group gets an audit entry.
 */
async function writeGroup(sql: Tx, ctx: ScimContext, id: string | null, v: GroupValues, action: string): Promise<string> {
  const known = v.members.length
    ? await sql<{ id: string }[]>`select id from employees where organization_id = ${ctx.organizationId} and id::text = any(${v.members}::text[]) and scim_deleted_at is null`
    : [];
  const unknown = v.members.filter((m) => !known.some((k) => k.id === m));
  if (unknown.length) throw new ScimError(400, "invalidValue", `members ${unknown.map((m) => `'${m}'`).join(", ")} are not Users of this organization`);
  let groupId = id;
  if (groupId) {
    await sql`update groups set name = ${v.displayName}, external_id = ${v.externalId}, updated_at = now() where id = ${groupId} and organization_id = ${ctx.organizationId}`;
  } else {
    [{ id: groupId }] = (await sql`insert into groups (organization_id, name, external_id) values (${ctx.organizationId}, ${v.displayName}, ${v.externalId}) returning id`) as unknown as [{ id: string }];
  }
  const before = (await sql<{ employee_id: string }[]>`select employee_id from employee_groups where group_id = ${groupId} for update`).map((r) => r.employee_id);
  const added = v.members.filter((m) => !before.includes(m));
  const removed = before.filter((m) => !v.members.includes(m));
  if (removed.length) await sql`delete from employee_groups where group_id = ${groupId} and employee_id = any(${removed}::uuid[])`;
  if (added.length) await sql`insert into employee_groups (employee_id, group_id, organization_id) select unnest(${added}::uuid[]), ${groupId}, ${ctx.organizationId} on conflict do nothing`;
  const changed = [...added, ...removed];
  if (changed.length) {
    await sql`update employees set updated_at = now() where id = any(${changed}::uuid[]) and organization_id = ${ctx.organizationId}`;
    await sql`insert into change_events (organization_id, resource_type, resource_id, change) select ${ctx.organizationId}, 'employee', unnest(${changed}::uuid[]), 'updated'`;
  }
  await audit(sql, ctx, action, groupId!, changed.length ? ["members"] : []);
  return groupId!;
}

/** One write in one transaction; a name or external id taken by another group is a 409. */
async function inTransaction<T>(ctx: ScimContext, run: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return (await ctx.db.$client.begin(run)) as T;
  } catch (err) {
    if (pgErrorCode(err) === PG.uniqueViolation) throw new ScimError(409, "uniqueness", "A Group with this displayName or externalId already exists");
    throw err;
  }
}

async function lockGroup(sql: Tx, ctx: ScimContext, id: string): Promise<void> {
  const [row] = isUuid(id) ? await sql`select id from groups where id = ${id} and organization_id = ${ctx.organizationId} for update` : [];
  if (!row) throw new ScimError(404, undefined, `Group ${id} not found`);
}

/** POST /Groups. */
export async function createScimGroup(ctx: ScimContext, body: unknown): Promise<Record<string, unknown>> {
  const v = parseGroup(body);
  const id = await inTransaction(ctx, (tx) => writeGroup(tx, ctx, null, v, "group.created"));
  return getScimGroup(ctx, id);
}

/** PUT /Groups/{id}: name, external id and the members replaced. */
export async function replaceScimGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  await inTransaction(ctx, async (tx) => {
    await lockGroup(tx, ctx, id);
    checkIfMatch(ifMatch, ((await getScimGroup(ctx, id, tx)).meta as { version: string }).version);
    return writeGroup(tx, ctx, id, parseGroup(body), "group.updated");
  });
  return getScimGroup(ctx, id);
}

/**
 * PATCH /Groups/{id}: scimmy applies the operations (after normalizePatch: member removals as
 * Microsoft Entra sends them, op names in any case) to the group as it is, under its row lock.
 * Answers the group, or null when the caller asked for members to be left out (204 then).
 */
export async function patchScimGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  await inTransaction(ctx, async (tx) => {
    await lockGroup(tx, ctx, id);
    const current = await getScimGroup(ctx, id, tx);
    checkIfMatch(ifMatch, (current.meta as { version: string }).version);
    let patched: unknown;
    try {
      const S = scim();
      patched = await new S.Messages.PatchOp(normalizePatch(body, current) as ConstructorParameters<typeof S.Messages.PatchOp>[0]).apply(new S.Schemas.Group(current, "out"));
    } catch (err) {
      throw asScimError(err) ?? err;
    }
    if (patched) await writeGroup(tx, ctx, id, parseGroup(JSON.parse(JSON.stringify(patched))), "group.updated");
    return id;
  });
  return getScimGroup(ctx, id);
}

/** DELETE /Groups/{id}: the group goes, and its members lose it (each an employee change). */
export async function deleteScimGroup(ctx: ScimContext, id: string, ifMatch?: string): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    await lockGroup(tx, ctx, id);
    const current = await getScimGroup(ctx, id, tx);
    checkIfMatch(ifMatch, (current.meta as { version: string }).version);
    // Its members lose it first, as employee changes; then the group and its audit entry.
    await writeGroup(tx, ctx, id, { displayName: current.displayName as string, externalId: (current.externalId as string | undefined) ?? null, members: [] }, "group.updated");
    await tx`delete from groups where id = ${id} and organization_id = ${ctx.organizationId}`;
    await audit(tx, ctx, "group.deleted", id, []);
  });
}

/** excludedAttributes=members (Microsoft Entra asks for it): a group without its member list. */
export const withoutMembers = (g: Record<string, unknown>) => {
  const { members: _m, ...rest } = g;
  return rest;
};
