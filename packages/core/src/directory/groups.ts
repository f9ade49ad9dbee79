import { and, asc, count, eq, inArray, ne, or, type SQL } from "drizzle-orm";
import type { CreateGroupBody, GroupListQuery, GroupView, PatchGroupBody } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { employeeGroups, groups } from "@insp/db/schema";
import { AppError, isUuid, notFound } from "../errors.ts";
import { archiveSet, assertRevision, commonFilters, page, recordDirectoryChange, uniqueOr409, type DirectoryActor } from "./common.ts";

/**
 * Groups over HTTP (/api/groups) and the admin CLI's create-group: one implementation. They are
 * the same groups SCIM provisions (scim/groups.ts) and the HR sync assigns by name or
 * externalGroupId; either side may change a group the other made. Members: members.ts.
 */

type GroupRow = typeof groups.$inferSelect;

const toView = (r: GroupRow, memberCount: number): GroupView => ({
  id: r.id,
  name: r.name,
  externalGroupId: r.externalId,
  memberCount,
  archived: r.archivedAt !== null,
  archivedAt: r.archivedAt?.toISOString() ?? null,
  revision: r.revision,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export const groupNotFound = (id: string) => notFound(`Group ${id} not found`);
const taken = (name: string | undefined, ext: string | null | undefined) =>
  `A group with ${name !== undefined ? `name '${name}'` : ""}${name !== undefined && ext ? " or " : ""}${ext ? `externalGroupId '${ext}'` : ""} already exists in this organization`;

async function memberCounts(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: employeeGroups.groupId, n: count() })
    .from(employeeGroups)
    .where(and(eq(employeeGroups.organizationId, organizationId), inArray(employeeGroups.groupId, ids)))
    .groupBy(employeeGroups.groupId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

async function views(db: DbOrTx, organizationId: string, rows: GroupRow[]): Promise<GroupView[]> {
  const counts = await memberCounts(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toView(r, counts.get(r.id) ?? 0));
}

/** The organization's groups among `ids` (feeds' and webhooks' loader). */
export async function groupsByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<GroupView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return views(
    db,
    organizationId,
    await db
      .select()
      .from(groups)
      .where(and(eq(groups.organizationId, organizationId), inArray(groups.id, valid))),
  );
}

export async function getGroup(db: DbOrTx, organizationId: string, id: string): Promise<GroupView> {
  const [view] = await groupsByIds(db, organizationId, [id]);
  if (!view) throw groupNotFound(id);
  return view;
}

export async function listGroups(db: DbOrTx, organizationId: string, q: GroupListQuery) {
  const conds: SQL[] = [eq(groups.organizationId, organizationId), ...commonFilters(groups, q)];
  if (q.externalGroupId !== undefined) conds.push(eq(groups.externalId, q.externalGroupId));
  const where = and(...conds);
  const rows = await db.select().from(groups).where(where).orderBy(asc(groups.name), asc(groups.id)).limit(q.limit).offset(q.offset);
  const [{ n }] = (await db.select({ n: count() }).from(groups).where(where)) as [{ n: number }];
  const p = page(await views(db, organizationId, rows), Number(n), q);
  return { groups: p.items, pagination: p.pagination };
}

async function assertFree(tx: Tx, organizationId: string, name: string | undefined, ext: string | null | undefined, except?: string): Promise<void> {
  const keys: SQL[] = [];
  if (name !== undefined) keys.push(eq(groups.name, name));
  if (ext) keys.push(eq(groups.externalId, ext));
  if (!keys.length) return;
  const conds = [eq(groups.organizationId, organizationId), or(...keys)!];
  if (except) conds.push(ne(groups.id, except));
  const [row] = await tx
    .select({ name: groups.name, ext: groups.externalId })
    .from(groups)
    .where(and(...conds));
  if (row) throw new AppError("conflict", taken(row.name === name ? name : undefined, row.ext === ext ? ext : undefined));
}

/** POST /api/groups and the admin CLI's create-group. 409 when the name or externalGroupId is taken. */
export async function createGroup(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateGroupBody): Promise<GroupView> {
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        await assertFree(tx, organizationId, input.name, input.externalGroupId);
        const [row] = await tx
          .insert(groups)
          .values({ organizationId, name: input.name, externalId: input.externalGroupId ?? null })
          .returning();
        await recordDirectoryChange(tx, actor, { organizationId, kind: "group", id: row!.id, change: "created" });
        return toView(row!, 0);
      }),
    taken(input.name, input.externalGroupId),
  );
}

/** PATCH /api/groups/{id}: rename, change externalGroupId, archive or restore. 404, 412, 409. */
export async function patchGroup(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchGroupBody, actor: DirectoryActor) {
  if (!isUuid(id)) throw groupNotFound(id);
  await uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(groups)
          .where(and(eq(groups.organizationId, organizationId), eq(groups.id, id)))
          .for("update");
        if (!row) throw groupNotFound(id);
        assertRevision("group", row.revision, expected);
        const fields: string[] = [];
        const set: Record<string, unknown> = {};
        const name = input.name !== undefined && input.name !== row.name ? input.name : undefined;
        const ext = input.externalGroupId !== undefined && input.externalGroupId !== row.externalId ? input.externalGroupId : undefined;
        await assertFree(tx, organizationId, name, ext, id);
        if (name !== undefined) {
          fields.push("name");
          set.name = name;
        }
        if (ext !== undefined) {
          fields.push("externalGroupId");
          set.externalId = ext;
        }
        const archive = archiveSet(row.archivedAt, input.archived);
        if (archive) {
          fields.push("archived");
          Object.assign(set, archive);
        }
        if (!fields.length) return;
        await tx
          .update(groups)
          .set({ ...set, revision: row.revision + 1 })
          .where(eq(groups.id, id));
        await recordDirectoryChange(tx, actor, { organizationId, kind: "group", id, change: archive && input.archived ? "archived" : "updated", fields });
      }),
    taken(input.name, input.externalGroupId),
  );
  return getGroup(db, organizationId, id);
}

/** DELETE /api/groups/{id}: only a group without members (409 naming how many: archive it instead). */
export async function deleteGroup(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  if (!isUuid(id)) throw groupNotFound(id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: groups.name })
      .from(groups)
      .where(and(eq(groups.organizationId, organizationId), eq(groups.id, id)))
      .for("update");
    if (!row) throw groupNotFound(id);
    const members = (await memberCounts(tx, organizationId, [id])).get(id) ?? 0;
    if (members > 0) {
      const who = `${members} ${members === 1 ? "employee is a member" : "employees are members"}`;
      throw new AppError("conflict", `Group '${row.name}' cannot be deleted: ${who}. Archive it instead (PATCH /api/groups/${id} with {"archived": true})`, [
        who,
      ]);
    }
    await tx.delete(groups).where(and(eq(groups.organizationId, organizationId), eq(groups.id, id)));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "group", id, change: "deleted" });
  });
}
