import type { SqlTx } from "@insp/db";
import { lockEmployees } from "../employees/sql/locks.ts";
import type { EmployeeStatus } from "../employees/types.ts";
import { directoryQuotaOf } from "../directory/common.ts";
import { isUuid } from "../errors.ts";
import { quotaMessage } from "../quota.ts";
import { getScimGroup } from "./groups.ts";
import { normalizePatch } from "./patch-rewrites.ts";
import { ScimError, asScimError, checkIfMatch, normalizeResource, scim } from "./protocol.ts";
import { LocksOutdated, scimTransaction } from "./transaction.ts";
import type { ScimContext } from "./users.ts";

/**
 * Writing SCIM Groups, one transaction per request. Members added and removed are employee
 * changes (change log `updated`, their updatedAt moves) and the group gets one audit entry.
 * Locks, in the sync workers' order: the advisory locks of every employee the write adds or
 * removes (sorted, in one statement), then the group's row (FOR NO KEY UPDATE, which lets a
 * worker's foreign-key check on the group through; FOR UPDATE for a deletion), then the
 * memberships. The group is read again under them; when it names employees the locks do not
 * cover, the write runs again. Only ACTIVE Users can join a group.
 */

interface GroupValues {
  displayName: string;
  externalId: string | null;
  members: string[];
}

/** A Group body validated and coerced by scimmy's schema. */
function parseGroup(body: unknown): GroupValues {
  let g: { displayName?: string; externalId?: string; members?: { value?: string; type?: string }[] };
  const raw = normalizeResource(body);
  // Before scimmy, whose answer to a type outside members.type's canonical values ("User") says less.
  if (Array.isArray(raw.members) && raw.members.some((m: { type?: unknown } | null) => m?.type !== undefined && m.type !== "User"))
    throw new ScimError(400, "invalidValue", "Groups contain Users only (no nested groups): members.type is User");
  try {
    g = JSON.parse(JSON.stringify(new (scim().Schemas.Group)(raw, "in")));
  } catch (err) {
    throw asScimError(err) ?? err;
  }
  const displayName = g.displayName?.trim();
  if (!displayName) throw new ScimError(400, "invalidValue", "displayName is required");
  if (displayName.length > 255) throw new ScimError(400, "invalidValue", "displayName must be at most 255 characters");
  if ((g.externalId?.length ?? 0) > 255) throw new ScimError(400, "invalidValue", "externalId must be at most 255 characters");
  return { displayName, externalId: g.externalId?.trim() || null, members: [...new Set((g.members ?? []).map((m) => String(m.value)))] };
}

type Change = { kind: "create"; values: GroupValues } | { kind: "replace"; body: unknown } | { kind: "patch"; body: unknown } | { kind: "delete" };

/** The group a change leaves (null: a PATCH that changes nothing); a deletion leaves it without members. */
async function target(current: Record<string, unknown> | null, change: Change): Promise<GroupValues | null> {
  if (change.kind === "create") return change.values;
  if (change.kind === "replace") return parseGroup(change.body);
  if (!current) return null;
  const name = current.displayName as string;
  const externalId = (current.externalId as string | undefined) ?? null;
  if (change.kind === "delete") return { displayName: name, externalId, members: [] };
  let patched: unknown;
  try {
    const S = scim();
    patched = await new S.Messages.PatchOp(normalizePatch(change.body, current, "Group") as ConstructorParameters<typeof S.Messages.PatchOp>[0]).apply(
      new S.Schemas.Group(current, "out"),
    );
  } catch (err) {
    throw asScimError(err) ?? err;
  }
  return patched ? parseGroup(JSON.parse(JSON.stringify(patched))) : null;
}

interface Employee {
  externalEmployeeId: string;
  status: EmployeeStatus;
  /** A User of the organization (not deleted through SCIM). */
  user: boolean;
}

/** The organization's employees among `ids` (any text: ids that are no uuid match nobody). */
async function employeesOf(tx: SqlTx, ctx: ScimContext, ids: string[]): Promise<Map<string, Employee>> {
  if (!ids.length) return new Map();
  const rows = await tx<{ id: string; external_employee_id: string; status: EmployeeStatus; user: boolean }[]>`
    select id, external_employee_id, status, scim_deleted_at is null as user from employees where organization_id = ${ctx.organizationId} and id::text = any(${ids}::text[])`;
  return new Map(rows.map((r) => [r.id, { externalEmployeeId: r.external_employee_id, status: r.status, user: r.user }]));
}

const membersOf = async (tx: SqlTx, groupId: string, lock: boolean) =>
  (await tx<{ employee_id: string }[]>`select employee_id from employee_groups where group_id = ${groupId} ${lock ? tx`for update` : tx``}`).map(
    (r) => r.employee_id,
  );

/** The group's audit entry, in the write's transaction: the OAuth client and the request id. */
const audit = (tx: SqlTx, ctx: ScimContext, action: string, groupId: string, changedFields: string[]) =>
  tx`insert into audit_log (organization_id, actor_type, actor_id, action, resource_type, resource_id, changed_fields, request_id)
    values (${ctx.organizationId}, 'oauth_client', ${ctx.clientId}, ${action}, 'group', ${groupId}, ${changedFields}::text[], ${ctx.requestId})`;

/** Unknown members and members who are not ACTIVE (INACTIVE or TERMINATED) are a 400 naming them; members already in the group stay. */
function checkMembers(v: GroupValues, before: string[], employees: Map<string, Employee>): void {
  const unknown = v.members.filter((m) => !employees.get(m)?.user);
  if (unknown.length) throw new ScimError(400, "invalidValue", `members ${unknown.map((m) => `'${m}'`).join(", ")} are not Users of this organization`);
  const was = new Set(before); // a Set: "all staff" groups have tens of thousands of members
  const inactive = v.members.filter((m) => !was.has(m) && employees.get(m)!.status !== "ACTIVE");
  if (inactive.length)
    throw new ScimError(400, "invalidValue", `members ${inactive.map((m) => `'${m}'`).join(", ")} are not active: only active Users can join a group`);
}

/**
 * An archived group (archived over /api/groups) takes no new members, as there, and as the HR sync
 * treats it as missing: a 400 naming the group. Renaming it, removing members or deleting it is
 * allowed.
 */
function refuseNewMembers(current: Record<string, unknown>, v: GroupValues, before: string[]): void {
  const was = new Set(before);
  if (v.members.some((m) => !was.has(m)))
    throw new ScimError(
      400,
      "invalidValue",
      `Group '${current.displayName as string}' (${current.id as string}) is archived and takes no new members: restore it first (PATCH /api/groups/${current.id as string} with {"archived": false})`,
    );
}

/**
 * One group write: look, lock the employees concerned, lock the group, read it again, check
 * If-Match and the members, write the group and the memberships. Returns the group's id.
 */
async function changeGroup(ctx: ScimContext, id: string | null, ifMatch: string | undefined, change: Change): Promise<string> {
  const uniqueness = "A Group with this displayName or externalId already exists";
  return scimTransaction(
    ctx,
    async (tx) => {
      // The look: whose locks the write needs (the members now and those it would leave).
      const seen = id ? await getScimGroup(ctx, id, tx) : null;
      const foreseen = await target(seen, change).catch(() => null);
      const heldIds = [...new Set([...(id ? await membersOf(tx, id, false) : []), ...(foreseen?.members ?? [])])];
      const held = await employeesOf(tx, ctx, heldIds);
      await lockEmployees(
        tx,
        ctx.organizationId,
        [...held.values()].map((e) => e.externalEmployeeId),
        [],
      );
      // Under the locks.
      let current: Record<string, unknown> | null = null;
      let archived = false;
      if (id) {
        const [row] = await (change.kind === "delete"
          ? tx`select id, archived_at is not null as archived from groups where id = ${id} and organization_id = ${ctx.organizationId} for update`
          : tx`select id, archived_at is not null as archived from groups where id = ${id} and organization_id = ${ctx.organizationId} for no key update`);
        if (!row) throw new ScimError(404, undefined, `Group ${id} not found`);
        archived = row.archived as boolean;
        current = await getScimGroup(ctx, id, tx);
        checkIfMatch(ifMatch, (current.meta as { version: string }).version);
      }
      const v = await target(current, change);
      if (!v) return id!;
      const before = id ? await membersOf(tx, id, true) : [];
      const now = await employeesOf(tx, ctx, [...new Set([...before, ...v.members])]);
      if ([...now].some(([eid, e]) => held.get(eid)?.externalEmployeeId !== e.externalEmployeeId)) throw new LocksOutdated();
      if (archived) refuseNewMembers(current!, v, before);
      checkMembers(v, before, now);
      const groupId = await writeGroup(tx, ctx, id, v, before, change.kind === "create" ? "group.created" : "group.updated");
      if (change.kind === "delete") {
        await tx`delete from groups where id = ${groupId} and organization_id = ${ctx.organizationId}`;
        await audit(tx, ctx, "group.deleted", groupId, []);
        await tx`insert into change_events (organization_id, resource_type, resource_id, change) values (${ctx.organizationId}, 'group', ${groupId}, 'deleted')`;
      }
      return groupId;
    },
    { uniqueness, retryUnique: false },
  );
}

/** The group's name and external id, and its members: `before` as they are, `v.members` as they become. */
async function writeGroup(tx: SqlTx, ctx: ScimContext, id: string | null, v: GroupValues, before: string[], action: string): Promise<string> {
  let groupId = id;
  if (groupId) {
    await tx`update groups set name = ${v.displayName}, external_id = ${v.externalId}, updated_at = now(), revision = revision + 1 where id = ${groupId} and organization_id = ${ctx.organizationId}`;
  } else {
    await assertGroupRoom(tx, ctx);
    [{ id: groupId }] =
      (await tx`insert into groups (organization_id, name, external_id) values (${ctx.organizationId}, ${v.displayName}, ${v.externalId}) returning id`) as unknown as [
        { id: string },
      ];
  }
  const [was, becomes] = [new Set(before), new Set(v.members)];
  const added = v.members.filter((m) => !was.has(m));
  const removed = before.filter((m) => !becomes.has(m));
  if (removed.length) await tx`delete from employee_groups where group_id = ${groupId} and employee_id = any(${removed}::uuid[])`;
  if (added.length)
    await tx`insert into employee_groups (employee_id, group_id, organization_id) select unnest(${added}::uuid[]), ${groupId}, ${ctx.organizationId} on conflict do nothing`;
  const changed = [...added, ...removed];
  if (changed.length) {
    await tx`update employees set updated_at = now() where id = any(${changed}::uuid[]) and organization_id = ${ctx.organizationId}`;
    await tx`insert into change_events (organization_id, resource_type, resource_id, change) select ${ctx.organizationId}, 'employee', unnest(${changed}::uuid[]), 'updated'`;
  }
  await audit(tx, ctx, action, groupId!, changed.length ? ["members"] : []);
  // group.created / group.updated for feeds and webhooks, as /api/groups sends them (docs/organization-administration.md).
  await tx`insert into change_events (organization_id, resource_type, resource_id, change) values (${ctx.organizationId}, 'group', ${groupId!}, ${id ? "updated" : "created"})`;
  return groupId!;
}

/** 409 past DIRECTORY_MAX_PER_ORG groups, counted under the lock /api/groups takes (quota.ts). */
async function assertGroupRoom(tx: SqlTx, ctx: ScimContext): Promise<void> {
  if (ctx.maxGroups === undefined) return;
  const q = directoryQuotaOf("groups");
  await tx`select pg_advisory_xact_lock(hashtextextended(${`${q.key}:${ctx.organizationId}`}, 0))`;
  const [{ n }] = (await tx`select count(*)::int as n from groups where organization_id = ${ctx.organizationId}`) as unknown as [{ n: number }];
  if (n >= ctx.maxGroups) throw new ScimError(409, undefined, quotaMessage(q, n, ctx.maxGroups));
}

/** POST /Groups. */
export async function createScimGroup(ctx: ScimContext, body: unknown): Promise<Record<string, unknown>> {
  const id = await changeGroup(ctx, null, undefined, { kind: "create", values: parseGroup(body) });
  return getScimGroup(ctx, id);
}

/** PUT /Groups/{id}: name, external id and the members replaced. */
export async function replaceScimGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  await changeGroup(ctx, groupId(id), ifMatch, { kind: "replace", body });
  return getScimGroup(ctx, id);
}

/**
 * PATCH /Groups/{id}: scimmy applies the operations (after normalizePatch: member removals as
 * Microsoft Entra sends them, op names in any case) to the group as it is under its locks.
 */
export async function patchScimGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  await changeGroup(ctx, groupId(id), ifMatch, { kind: "patch", body });
  return getScimGroup(ctx, id);
}

/** DELETE /Groups/{id}: its members lose it first (each an employee change), then the group goes. */
export async function deleteScimGroup(ctx: ScimContext, id: string, ifMatch?: string): Promise<void> {
  await changeGroup(ctx, groupId(id), ifMatch, { kind: "delete" });
}

const groupId = (id: string) => {
  if (!isUuid(id)) throw new ScimError(404, undefined, `Group ${id} not found`);
  return id;
};
