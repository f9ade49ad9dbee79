import { and, asc, count, eq, inArray, ne, type SQL } from "drizzle-orm";
import type { CreateRoleBody, PatchRoleBody, RoleListQuery, RoleView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { employeeRoles, roles } from "@insp/db/schema";
import { AppError, isUuid, notFound } from "../errors.ts";
import { archiveSet, assertRevision, commonFilters, page, recordDirectoryChange, uniqueOr409, type DirectoryActor } from "./common.ts";

/** Roles over HTTP (/api/roles) and the admin CLI's create-role: one implementation. The HR sync assigns them by name. */

type RoleRow = typeof roles.$inferSelect;

const toView = (r: RoleRow, holders: number): RoleView => ({
  id: r.id,
  name: r.name,
  holders,
  archived: r.archivedAt !== null,
  archivedAt: r.archivedAt?.toISOString() ?? null,
  revision: r.revision,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

const roleNotFound = (id: string) => notFound(`Role ${id} not found`);
const nameTaken = (name: string) => `A role named '${name}' already exists in this organization (archived roles keep their name)`;

/** Employees holding each role, for the roles of one page. */
async function holdersOf(db: DbOrTx, organizationId: string, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: employeeRoles.roleId, n: count() })
    .from(employeeRoles)
    .where(and(eq(employeeRoles.organizationId, organizationId), inArray(employeeRoles.roleId, ids)))
    .groupBy(employeeRoles.roleId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

async function views(db: DbOrTx, organizationId: string, rows: RoleRow[]): Promise<RoleView[]> {
  const holders = await holdersOf(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toView(r, holders.get(r.id) ?? 0));
}

/** The organization's roles among `ids` (feeds' and webhooks' loader). */
export async function rolesByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<RoleView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  return views(
    db,
    organizationId,
    await db
      .select()
      .from(roles)
      .where(and(eq(roles.organizationId, organizationId), inArray(roles.id, valid))),
  );
}

export async function getRole(db: DbOrTx, organizationId: string, id: string): Promise<RoleView> {
  const [view] = await rolesByIds(db, organizationId, [id]);
  if (!view) throw roleNotFound(id);
  return view;
}

export async function listRoles(db: DbOrTx, organizationId: string, q: RoleListQuery) {
  const conds: SQL[] = [eq(roles.organizationId, organizationId), ...commonFilters(roles, q)];
  const where = and(...conds);
  const rows = await db.select().from(roles).where(where).orderBy(asc(roles.name), asc(roles.id)).limit(q.limit).offset(q.offset);
  const [{ n }] = (await db.select({ n: count() }).from(roles).where(where)) as [{ n: number }];
  const p = page(await views(db, organizationId, rows), Number(n), q);
  return { roles: p.items, pagination: p.pagination };
}

async function assertNameFree(tx: Tx, organizationId: string, name: string, except?: string): Promise<void> {
  const conds = [eq(roles.organizationId, organizationId), eq(roles.name, name)];
  if (except) conds.push(ne(roles.id, except));
  const [taken] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(...conds));
  if (taken) throw new AppError("conflict", nameTaken(name));
}

/** POST /api/roles and the admin CLI's create-role. 409 when the name is taken. */
export async function createRole(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateRoleBody): Promise<RoleView> {
  return uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        await assertNameFree(tx, organizationId, input.name);
        const [row] = await tx.insert(roles).values({ organizationId, name: input.name }).returning();
        await recordDirectoryChange(tx, actor, { organizationId, kind: "role", id: row!.id, change: "created" });
        return toView(row!, 0);
      }),
    nameTaken(input.name),
  );
}

/** PATCH /api/roles/{id}: rename, archive or restore. 404, 412, 409 (name taken). */
export async function patchRole(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchRoleBody, actor: DirectoryActor) {
  if (!isUuid(id)) throw roleNotFound(id);
  await uniqueOr409(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(roles)
          .where(and(eq(roles.organizationId, organizationId), eq(roles.id, id)))
          .for("update");
        if (!row) throw roleNotFound(id);
        assertRevision("role", row.revision, expected);
        const fields: string[] = [];
        const set: Record<string, unknown> = {};
        if (input.name !== undefined && input.name !== row.name) {
          await assertNameFree(tx, organizationId, input.name, id);
          fields.push("name");
          set.name = input.name;
        }
        const archive = archiveSet(row.archivedAt, input.archived);
        if (archive) {
          fields.push("archived");
          Object.assign(set, archive);
        }
        if (!fields.length) return;
        await tx
          .update(roles)
          .set({ ...set, revision: row.revision + 1 })
          .where(eq(roles.id, id));
        const change = archive && input.archived ? "archived" : "updated";
        await recordDirectoryChange(tx, actor, { organizationId, kind: "role", id, change, fields });
      }),
    nameTaken(input.name ?? ""),
  );
  return getRole(db, organizationId, id);
}

/** DELETE /api/roles/{id}: only a role nobody holds (409 naming how many do: archive it instead). */
export async function deleteRole(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  if (!isUuid(id)) throw roleNotFound(id);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ name: roles.name })
      .from(roles)
      .where(and(eq(roles.organizationId, organizationId), eq(roles.id, id)))
      .for("update");
    if (!row) throw roleNotFound(id);
    const held = (await holdersOf(tx, organizationId, [id])).get(id) ?? 0;
    if (held > 0) {
      const who = `${held} ${held === 1 ? "employee holds" : "employees hold"} it`;
      throw new AppError("conflict", `Role '${row.name}' cannot be deleted: ${who}. Archive it instead (PATCH /api/roles/${id} with {"archived": true})`, [
        who,
      ]);
    }
    await tx.delete(roles).where(and(eq(roles.organizationId, organizationId), eq(roles.id, id)));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "role", id, change: "deleted" });
  });
}
