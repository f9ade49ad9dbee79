import { and, eq, ne, or, type SQL } from "drizzle-orm";
import type { CreateGroupBody, GroupListQuery, GroupView, PatchGroupBody } from "@insp/contracts";
import type { Db, DbOrTx, Tx } from "@insp/db";
import { employeeGroups, groups } from "@insp/db/schema";
import { AppError } from "../errors.ts";
import { blockedBy, countedViews, counterOf, directoryNoun, type DirectoryActor, type PatchPlan } from "./common.ts";

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

const taken = (name: string | undefined, ext: string | null | undefined) =>
  `A group with ${name !== undefined ? `name '${name}'` : ""}${name !== undefined && ext ? " or " : ""}${ext ? `externalGroupId '${ext}'` : ""} already exists in this organization`;

/** Employees in each group. */
const memberCounts = counterOf(employeeGroups, employeeGroups.groupId);

const noun = directoryNoun<GroupRow, GroupView>({
  table: groups,
  kind: "group",
  label: "Group",
  path: "groups",
  unique: { column: groups.name, taken: (name) => taken(name, undefined) },
  display: (r) => r.name,
  views: countedViews(memberCounts, toView),
});

export const groupNotFound = noun.missing;

/** The organization's groups among `ids` (feeds' and webhooks' loader). */
export const groupsByIds = noun.byIds;

export const getGroup = noun.get;

export async function listGroups(db: DbOrTx, organizationId: string, q: GroupListQuery) {
  const extra: SQL[] = [];
  if (q.externalGroupId !== undefined) extra.push(eq(groups.externalId, q.externalGroupId));
  const p = await noun.list(db, organizationId, q, groups.name, extra);
  return { groups: p.items, pagination: p.pagination };
}

/** 409 when another group has the name or the externalGroupId (groups have two unique keys). */
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

/** POST /api/groups and the admin CLI's create-group. 409 when the name or externalGroupId is taken; 409 past `max` (DIRECTORY_MAX_PER_ORG; the admin CLI gives none). */
export async function createGroup(db: Db | Tx, organizationId: string, actor: DirectoryActor, input: CreateGroupBody, max?: number): Promise<GroupView> {
  return noun.create(db, organizationId, actor, {
    max,
    unique: input.name,
    before: (tx) => assertFree(tx, organizationId, input.name, input.externalGroupId),
    insert: async (tx) =>
      (
        await tx
          .insert(groups)
          .values({ organizationId, name: input.name, externalId: input.externalGroupId ?? null })
          .returning()
      )[0]!,
    taken: taken(input.name, input.externalGroupId),
  });
}

/** PATCH /api/groups/{id}: rename, change externalGroupId, archive or restore. 404, 412, 409. */
export async function patchGroup(db: Db, organizationId: string, id: string, expected: number[] | null, input: PatchGroupBody, actor: DirectoryActor) {
  return noun.patch(db, organizationId, id, expected, actor, {
    taken: taken(input.name, input.externalGroupId),
    archived: input.archived,
    plan: async (tx, row) => {
      const plan: PatchPlan = { set: {}, fields: [] };
      const name = input.name !== undefined && input.name !== row.name ? input.name : undefined;
      const ext = input.externalGroupId !== undefined && input.externalGroupId !== row.externalId ? input.externalGroupId : undefined;
      await assertFree(tx, organizationId, name, ext, id);
      if (name !== undefined) {
        plan.fields.push("name");
        plan.set.name = name;
      }
      if (ext !== undefined) {
        plan.fields.push("externalGroupId");
        plan.set.externalId = ext;
      }
      return plan;
    },
  });
}

/** DELETE /api/groups/{id}: only a group without members (409 naming how many: archive it instead). */
export async function deleteGroup(db: Db, organizationId: string, id: string, actor: DirectoryActor): Promise<void> {
  await noun.remove(db, organizationId, id, actor, async (tx) => {
    return blockedBy((await memberCounts(tx, organizationId, [id])).get(id) ?? 0, "employee is a member", "employees are members");
  });
}
