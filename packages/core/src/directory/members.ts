import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { GroupMemberView } from "@insp/contracts";
import type { Db, DbOrTx } from "@insp/db";
import { employeeGroups, employees, groups } from "@insp/db/schema";
import { AppError, isUuid, notFound } from "../errors.ts";
import { groupNotFound } from "./groups.ts";
import { page, recordDirectoryChange, type DirectoryActor } from "./common.ts";

/**
 * A group's members over HTTP (/api/groups/{id}/members): employees, as the HR sync and SCIM
 * assign them (employee_groups). Adding or removing one is a change of the group (group.updated).
 */

const memberColumns = {
  employeeId: employees.id,
  externalEmployeeId: employees.externalEmployeeId,
  name: employees.displayName,
  email: employees.email,
  userId: employees.userId,
  memberRole: employeeGroups.memberRole,
};

async function groupRow(db: DbOrTx, organizationId: string, id: string, lock: boolean) {
  if (!isUuid(id)) throw groupNotFound(id);
  const q = db
    .select({ id: groups.id, archivedAt: groups.archivedAt, revision: groups.revision })
    .from(groups)
    .where(and(eq(groups.organizationId, organizationId), eq(groups.id, id)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw groupNotFound(id);
  return row;
}

const inGroup = (organizationId: string, groupId: string) =>
  and(eq(employeeGroups.organizationId, organizationId), eq(employeeGroups.groupId, groupId), isNull(employees.scimDeletedAt));

export async function listGroupMembers(db: DbOrTx, organizationId: string, groupId: string, q: { limit: number; offset: number }) {
  await groupRow(db, organizationId, groupId, false);
  const from = () =>
    db
      .select(memberColumns)
      .from(employeeGroups)
      .innerJoin(employees, and(eq(employees.id, employeeGroups.employeeId), eq(employees.organizationId, employeeGroups.organizationId)));
  const rows = await from()
    .where(inGroup(organizationId, groupId))
    .orderBy(asc(sql`coalesce(${employees.displayName}, '')`), asc(employees.id))
    .limit(q.limit)
    .offset(q.offset);
  const [{ n }] = (await db
    .select({ n: count() })
    .from(employeeGroups)
    .innerJoin(employees, eq(employees.id, employeeGroups.employeeId))
    .where(inGroup(organizationId, groupId))) as [{ n: number }];
  const p = page(rows as GroupMemberView[], Number(n), q);
  return { members: p.items, pagination: p.pagination };
}

const employeeNotFound = (id: string) => notFound(`Employee ${id} not found`);

/** PUT /api/groups/{id}/members/{employeeId}: adds the employee, or sets their memberRole. 409 for an archived group. */
export async function addGroupMember(
  db: Db,
  organizationId: string,
  groupId: string,
  employeeId: string,
  memberRole: string | null,
  actor: DirectoryActor,
): Promise<GroupMemberView> {
  await db.transaction(async (tx) => {
    const group = await groupRow(tx, organizationId, groupId, true);
    if (group.archivedAt)
      throw new AppError("conflict", `Group ${groupId} is archived and takes no new members: restore it first (PATCH with {"archived": false})`);
    if (!isUuid(employeeId)) throw employeeNotFound(employeeId);
    const [emp] = await tx
      .select({ id: employees.id })
      .from(employees)
      .where(and(eq(employees.organizationId, organizationId), eq(employees.id, employeeId), isNull(employees.scimDeletedAt)))
      .for("key share");
    if (!emp) throw employeeNotFound(employeeId);
    const [before] = await tx
      .select({ memberRole: employeeGroups.memberRole })
      .from(employeeGroups)
      .where(and(eq(employeeGroups.groupId, groupId), eq(employeeGroups.employeeId, emp.id)));
    if (before && before.memberRole === memberRole) return;
    await tx
      .insert(employeeGroups)
      .values({ organizationId, groupId, employeeId: emp.id, memberRole })
      .onConflictDoUpdate({ target: [employeeGroups.employeeId, employeeGroups.groupId], set: { memberRole } });
    await tx
      .update(groups)
      .set({ revision: group.revision + 1 })
      .where(eq(groups.id, groupId));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "group", id: groupId, change: "updated", fields: [before ? "memberRole" : "members"] });
  });
  const [member] = await db
    .select(memberColumns)
    .from(employeeGroups)
    .innerJoin(employees, eq(employees.id, employeeGroups.employeeId))
    .where(
      and(eq(employeeGroups.organizationId, organizationId), eq(employeeGroups.groupId, groupId), eq(employeeGroups.employeeId, employeeId.toLowerCase())),
    );
  if (!member) throw employeeNotFound(employeeId);
  return member as GroupMemberView;
}

/** DELETE /api/groups/{id}/members/{employeeId}: 404 when the employee is not a member. */
export async function removeGroupMember(db: Db, organizationId: string, groupId: string, employeeId: string, actor: DirectoryActor): Promise<void> {
  await db.transaction(async (tx) => {
    const group = await groupRow(tx, organizationId, groupId, true);
    const gone = isUuid(employeeId)
      ? await tx
          .delete(employeeGroups)
          .where(and(eq(employeeGroups.organizationId, organizationId), eq(employeeGroups.groupId, groupId), eq(employeeGroups.employeeId, employeeId)))
          .returning({ id: employeeGroups.employeeId })
      : [];
    if (!gone.length) throw notFound(`Employee ${employeeId} is not a member of group ${groupId}`);
    await tx
      .update(groups)
      .set({ revision: group.revision + 1 })
      .where(eq(groups.id, groupId));
    await recordDirectoryChange(tx, actor, { organizationId, kind: "group", id: groupId, change: "updated", fields: ["members"] });
  });
}
