import type { CreateRoleBody, PatchRoleBody, RoleListQuery, RoleView } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { employeeRoles, roles } from "@insp/db/schema";
import { blockedBy, countedViews, counterOf, directoryNoun, type DirectoryActor } from "./common.ts";

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

/** Employees holding each role, for the roles of one page. */
const holdersOf = counterOf(employeeRoles, employeeRoles.roleId);

const noun = directoryNoun<RoleRow, RoleView>({
  table: roles,
  kind: "role",
  label: "Role",
  path: "roles",
  unique: { column: roles.name, taken: (name) => `A role named '${name}' already exists in this organization (archived roles keep their name)` },
  display: (r) => r.name,
  views: countedViews(holdersOf, toView),
});

/** The organization's roles among `ids` (feeds' and webhooks' loader). */
export const rolesByIds = noun.byIds;

export const getRole = noun.get;

export async function listRoles(db: DbOrTx, organizationId: string, q: RoleListQuery) {
  const p = await noun.list(db, organizationId, q, roles.name);
  return { roles: p.items, pagination: p.pagination };
}

/** POST /api/roles and the admin CLI's create-role. 409 when the name is taken; 409 past `max` (DIRECTORY_MAX_PER_ORG; the admin CLI gives none). */
export async function createRole(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateRoleBody, max?: number): Promise<RoleView> {
  return noun.create(db, organizationId, actor, {
    max,
    unique: input.name,
    insert: async (tx) => (await tx.insert(roles).values({ organizationId, name: input.name }).returning())[0]!,
  });
}

/** PATCH /api/roles/{id}: rename, archive or restore. 404, 412, 409 (name taken). */
export async function patchRole(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchRoleBody, actor: DirectoryActor) {
  return noun.patch(db, organizationId, id, expected, actor, {
    taken: noun.spec.unique.taken(input.name ?? ""),
    archived: input.archived,
    plan: (tx, row) => noun.planUnique(tx, organizationId, row, "name", input.name),
  });
}

/** DELETE /api/roles/{id}: only a role nobody holds (409 naming how many do: archive it instead). */
export async function deleteRole(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  await noun.remove(db, organizationId, id, actor, async (tx) => {
    return blockedBy((await holdersOf(tx, organizationId, [id])).get(id) ?? 0, "employee holds it", "employees hold it");
  });
}
