import { createHash, randomUUID } from "node:crypto";
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { employees, mailOutbox, users } from "@insp/db/schema";
import { ADMIN_CLI, recordAudit, type AuditContext } from "../audit/index.ts";
import type { Principal } from "../auth/credentials.ts";
import { hashPassword } from "../auth/passwords.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, forbidden, isUuid, notFound } from "../errors.ts";
import type { WelcomeMailData } from "../mail/outbox.ts";

/**
 * The organization's users (docs/users.md): listed, read and invited by admin users and API keys
 * with users:manage, and by the operator's admin CLI (the same functions). Never a password or its hash.
 */

/** The user fields the HR sync writes for a user linked to an employee (employees/plan.ts): read-only elsewhere. */
const HR_OWNED_FIELDS = ["name", "email", "disabled"] as const;

export interface UserView {
  id: string;
  email: string;
  username: string;
  name: string | null;
  isAdmin: boolean;
  disabled: boolean;
  mustResetPassword: boolean;
  employeeId: string | null;
  externalEmployeeId: string | null;
  managedByHrSync: boolean;
  hrOwnedFields: string[];
  createdAt: string;
  updatedAt: string;
}

export type UserActor = Principal | "admin_cli";

/** Admin users and API keys (the route has checked users:manage); anyone else is refused. */
function assertMayManageUsers(actor: UserActor): void {
  if (actor === "admin_cli" || actor.kind === "apiKey") return;
  if (actor.kind === "user" && actor.isAdmin) return;
  throw forbidden("Only admin users can manage users");
}

const columns = {
  id: users.id,
  email: users.email,
  username: users.username,
  name: users.name,
  isAdmin: users.isAdmin,
  disabled: users.disabled,
  mustResetPassword: users.mustResetPassword,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  employeeId: employees.id,
  externalEmployeeId: employees.externalEmployeeId,
};
type Row = { [K in keyof typeof columns]: (typeof columns)[K]["_"]["data"] | (K extends "employeeId" | "externalEmployeeId" ? null : never) };

function toView(r: Row): UserView {
  const linked = r.employeeId !== null;
  return {
    id: r.id,
    email: r.email,
    username: r.username,
    name: r.name,
    isAdmin: r.isAdmin,
    disabled: r.disabled,
    mustResetPassword: r.mustResetPassword,
    employeeId: r.employeeId,
    externalEmployeeId: r.externalEmployeeId,
    managedByHrSync: linked,
    hrOwnedFields: linked ? [...HR_OWNED_FIELDS] : [],
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

const selectUsers = (db: DbOrTx) =>
  db
    .select(columns)
    .from(users)
    .leftJoin(employees, and(eq(employees.userId, users.id), eq(employees.organizationId, users.organizationId)));

export interface UserListQuery {
  limit: number;
  offset: number;
  /** Prefix of the e-mail or the name, case-insensitive. */
  q?: string;
  disabled?: boolean;
  isAdmin?: boolean;
}

const likePrefix = (s: string) => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A page of the organization's users, by e-mail. */
export async function listUsers(db: DbOrTx, organizationId: string, actor: UserActor, q: UserListQuery) {
  assertMayManageUsers(actor);
  const filters: (SQL | undefined)[] = [eq(users.organizationId, organizationId)];
  if (q.q) filters.push(or(ilike(users.email, likePrefix(q.q)), ilike(users.name, likePrefix(q.q))));
  if (q.disabled !== undefined) filters.push(eq(users.disabled, q.disabled));
  if (q.isAdmin !== undefined) filters.push(eq(users.isAdmin, q.isAdmin));
  const where = and(...filters);
  const rows = (await selectUsers(db)
    .where(where)
    .orderBy(asc(sql`lower(${users.email})`), asc(users.id))
    .limit(q.limit)
    .offset(q.offset)) as Row[];
  const total = Number((await db.select({ n: count() }).from(users).where(where))[0]?.n ?? 0);
  return {
    users: rows.map(toView),
    pagination: { total, limit: q.limit, offset: q.offset, hasMore: q.offset + rows.length < total },
  };
}

/** One user of the organization; another organization's user (or no user) is a 404. */
export async function getUser(db: DbOrTx, organizationId: string, actor: UserActor, id: string): Promise<UserView> {
  assertMayManageUsers(actor);
  if (!isUuid(id)) throw notFound("User not found");
  const [row] = (await selectUsers(db).where(and(eq(users.id, id), eq(users.organizationId, organizationId)))) as Row[];
  if (!row) throw notFound("User not found");
  return toView(row);
}

export interface NewUser {
  email: string;
  name?: string | null;
  isAdmin?: boolean;
  username?: string;
  /** A password chosen by the operator (admin CLI only); without one the user gets a welcome mail with a temporary password. */
  password?: string;
}

/**
 * A new user. Without a password (as over HTTP): mustResetPassword, and a welcome mail in the
 * outbox, written in the same transaction, exactly as the HR sync's (the temporary password is
 * made when the mail is sent, and exists only in it). E-mails are unique across organizations:
 * one already used is a 409. Audited without any password. `outboxIds`: enqueue their mail jobs after commit.
 */
export async function inviteUser(db: DbOrTx, organizationId: string, actor: UserActor, input: NewUser, audit: AuditContext = ADMIN_CLI) {
  assertMayManageUsers(actor);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${input.email})`)
      .limit(1);
    if (taken) throw new AppError("conflict", `A user with e-mail ${input.email} already exists`);
    const username = input.username ?? input.email;
    const [row] = await tx
      .insert(users)
      .values({
        organizationId,
        email: input.email,
        username,
        name: input.name ?? null,
        passwordHash,
        mustResetPassword: passwordHash === null,
        isAdmin: input.isAdmin ?? false,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!row) throw new AppError("conflict", `A user with e-mail ${input.email} or username ${username} already exists`);
    const outboxIds: string[] = [];
    if (!passwordHash) {
      const data: WelcomeMailData = { displayName: input.name ?? null, username, includeTemporaryPassword: true };
      const id = randomUUID();
      await tx.insert(mailOutbox).values({ id, organizationId, userId: row.id, kind: "welcome", toAddress: input.email, data });
      outboxIds.push(id);
    }
    await recordChange(tx, { organizationId, resourceType: "user", resourceId: row.id, change: "created" });
    await recordAudit(tx, audit, {
      organizationId,
      action: "user.created",
      resourceType: "user",
      resourceId: row.id,
      changedFields: ["email", "name", "isAdmin"],
    });
    const [created] = (await selectUsers(tx).where(eq(users.id, row.id))) as Row[];
    return { user: toView(created!), outboxIds };
  });
}

/** The ETag of a user: a fingerprint of everything the answer shows, so any change (the HR sync's too) changes it. */
export const userETag = (u: UserView) => `"${createHash("sha256").update(JSON.stringify(u)).digest("hex").slice(0, 20)}"`;

export interface UserPatch {
  name?: string | null;
  isAdmin?: boolean;
  disabled?: boolean;
}

async function lockedView(tx: DbOrTx, organizationId: string, id: string): Promise<UserView> {
  if (!isUuid(id)) throw notFound("User not found");
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${id} and ${users.organizationId} = ${organizationId} for update`);
  const [row] = (await selectUsers(tx).where(and(eq(users.id, id), eq(users.organizationId, organizationId)))) as Row[];
  if (!row) throw notFound("User not found");
  return toView(row);
}

/** The account of an erased employee (docs/erasure.md) stays as the erasure left it: any change is a 409. */
async function assertNotErased(tx: DbOrTx, organizationId: string, id: string): Promise<void> {
  const [row] = await tx
    .select({ erasedAt: users.erasedAt })
    .from(users)
    .where(and(eq(users.id, id), eq(users.organizationId, organizationId)));
  if (row?.erasedAt)
    throw new AppError("conflict", "This user's personal data was erased with their employee record: the account is disabled for good and cannot be changed");
}

/**
 * Refuses (409) to leave the organization without an active admin. The caller holds the
 * organization's admin lock (adminLock), so two admins demoting each other at once cannot both succeed.
 */
async function assertAnotherActiveAdmin(tx: DbOrTx, organizationId: string, id: string, what: string) {
  const others = await tx.execute(
    sql`select id from ${users} where ${users.organizationId} = ${organizationId} and ${users.isAdmin} and not ${users.disabled} and ${users.id} <> ${id} limit 1`,
  );
  if (others.length === 0) throw new AppError("conflict", `Cannot ${what} the organization's last active admin: make another user an admin first`);
}

/**
 * Changes name, isAdmin, disabled. `ifMatch`: the ETag the client read (null for `*`); another is a
 * 412. For a user linked to an employee, the fields the HR sync writes (name, email, disabled) are
 * read-only here: a change to one is a 409 naming it. Disabling refuses the user's tokens at once
 * (tokensValidAfter); the last active admin cannot be disabled or demoted (409).
 */
export async function updateUser(
  db: DbOrTx,
  organizationId: string,
  actor: UserActor,
  id: string,
  ifMatch: string[] | null,
  patch: UserPatch,
  audit: AuditContext = ADMIN_CLI,
): Promise<UserView> {
  assertMayManageUsers(actor);
  return db.transaction(async (tx) => {
    // Changes of admin or disabled flags of one organization take turns (the last-admin guard), in
    // one lock taken first: row locks taken in two orders could deadlock two admins demoting each other.
    if (patch.isAdmin !== undefined || patch.disabled !== undefined)
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`users:admins:${organizationId}`}, 0))`);
    const current = await lockedView(tx, organizationId, id);
    if (ifMatch && !ifMatch.includes(userETag(current)))
      throw new AppError("stale", "The user changed since you read it (ETag differs): GET it again and re-apply your change");
    const changed = (Object.keys(patch) as (keyof UserPatch)[]).filter((k) => patch[k] !== undefined && patch[k] !== current[k]);
    if (changed.length) await assertNotErased(tx, organizationId, id);
    const owned = changed.find((k) => current.hrOwnedFields.includes(k));
    if (owned)
      throw new AppError("conflict", `${owned} is owned by the HR sync for this user (employee ${current.externalEmployeeId}): change it in the HR system`);
    if (!changed.length) return current;
    const wasActiveAdmin = current.isAdmin && !current.disabled;
    const willBeActiveAdmin = (patch.isAdmin ?? current.isAdmin) && !(patch.disabled ?? current.disabled);
    if (wasActiveAdmin && !willBeActiveAdmin) await assertAnotherActiveAdmin(tx, organizationId, id, patch.disabled ? "disable" : "demote");
    await tx
      .update(users)
      .set({
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.isAdmin !== undefined ? { isAdmin: patch.isAdmin } : {}),
        ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}),
        ...(patch.disabled === true || patch.isAdmin === false ? { tokensValidAfter: sql`now()` } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(users.id, id), eq(users.organizationId, organizationId)));
    const change = changed.includes("disabled") ? (patch.disabled ? "disabled" : "enabled") : "updated";
    const action = `user.${change}`;
    await recordChange(tx, { organizationId, resourceType: "user", resourceId: id, change });
    await recordAudit(tx, audit, { organizationId, action, resourceType: "user", resourceId: id, changedFields: changed });
    return lockedView(tx, organizationId, id);
  });
}

/**
 * A new temporary password by mail (the welcome mail, as at the invitation), mustResetPassword set,
 * and the user's current password and tokens refused at once. A disabled user is a 409.
 * `outboxIds`: enqueue their mail jobs after commit.
 */
export async function resetUserPassword(db: DbOrTx, organizationId: string, actor: UserActor, id: string, audit: AuditContext = ADMIN_CLI) {
  assertMayManageUsers(actor);
  return db.transaction(async (tx) => {
    const current = await lockedView(tx, organizationId, id);
    await assertNotErased(tx, organizationId, id);
    if (current.disabled) throw new AppError("conflict", "The user is disabled: enable them first (PATCH disabled false)");
    await tx
      .update(users)
      .set({ passwordHash: null, mustResetPassword: true, tokensValidAfter: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(users.id, id), eq(users.organizationId, organizationId)));
    const outboxId = randomUUID();
    const data: WelcomeMailData = { displayName: current.name, username: current.username, includeTemporaryPassword: true, purpose: "password_reset" };
    await tx.insert(mailOutbox).values({ id: outboxId, organizationId, userId: id, kind: "welcome", toAddress: current.email, data });
    // user.updated: mustResetPassword is now true (the answer shows it); never the password.
    await recordChange(tx, { organizationId, resourceType: "user", resourceId: id, change: "updated" });
    await recordAudit(tx, audit, { organizationId, action: "user.password_reset", resourceType: "user", resourceId: id, changedFields: ["password"] });
    return { user: await lockedView(tx, organizationId, id), outboxIds: [outboxId] };
  });
}

/** Users by id, as views (feeds and webhook bodies). */
export async function usersByIds(db: DbOrTx, organizationId: string, ids: string[]): Promise<UserView[]> {
  const valid = ids.filter(isUuid);
  if (!valid.length) return [];
  const rows = (await selectUsers(db).where(and(eq(users.organizationId, organizationId), inArray(users.id, valid)))) as Row[];
  return rows.map(toView);
}
