import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { employeeGroups, employeeRoles, employeeSites, employees, mailOutbox, users } from "@insp/db/schema";
import { ADMIN_CLI, recordAudit, type AuditContext } from "../audit/index.ts";
import type { Principal } from "../auth/credentials.ts";
import { recordChange } from "../changes/index.ts";
import { AppError, forbidden, isUuid, notFound } from "../errors.ts";
import { getEmployee, type EmployeeView } from "./read.ts";
import { scrubStoredCopies } from "./erase-copies.ts";
import { scrubberFor } from "./scrub.ts";

/**
 * Erasure of a former employee (POST /api/v1/employees/{id}/erase, the admin CLI's
 * erase-employee; docs/erasure.md): in one transaction, the employee's and its user account's
 * personal data become a pseudonym, the account is disabled for good (the users table's check
 * refuses to enable it again, whoever tries), and the stored copies of the person's data
 * elsewhere are deleted or scrubbed (erase-copies.ts). Inspections, actions, comments and the
 * audit log keep their ids and so name the pseudonym.
 */

export interface EmployeeErasure {
  pseudonym: string;
  erasedAt: string;
  employee: EmployeeView;
}

export type EraseActor = Principal | "admin_cli";

/** The employee fields erased (the audit entry names them; never their values). */
const ERASED_FIELDS = ["firstName", "lastName", "displayName", "email", "phone", "supervisor", "metadata", "externalEmployeeId", "roles", "groups", "sites"];
const ERASED_USER_FIELDS = ["email", "username", "name", "password", "disabled", "isAdmin"];

/** `erased-` and the first 12 hex digits of the employee's id: unique enough in one organization, and says nothing of the person. */
const pseudonymOf = (employeeId: string) => `erased-${employeeId.replace(/-/g, "").slice(0, 12)}`;
/** The account's e-mail and username: unique across organizations (the full id), and a domain that can never receive mail (RFC 2606). */
const accountAddressOf = (employeeId: string) => `erased-${employeeId}@erased.invalid`;

function assertMayErase(actor: EraseActor): void {
  if (actor === "admin_cli" || actor.kind === "apiKey") return;
  if (actor.kind === "user" && actor.isAdmin) return;
  throw forbidden("Only admin users can erase employees");
}

interface Subject {
  id: string;
  externalEmployeeId: string;
  status: string;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  email: string | null;
  phone: string | null;
  userId: string | null;
  erasedAt: Date | null;
}

async function readSubject(tx: DbOrTx, organizationId: string, id: string, lock: boolean): Promise<Subject | undefined> {
  const q = tx
    .select({
      id: employees.id,
      externalEmployeeId: employees.externalEmployeeId,
      status: employees.status,
      firstName: employees.firstName,
      lastName: employees.lastName,
      displayName: employees.displayName,
      email: employees.email,
      phone: employees.phone,
      userId: employees.userId,
      erasedAt: employees.erasedAt,
    })
    .from(employees)
    .where(and(eq(employees.id, id), eq(employees.organizationId, organizationId)));
  const [row] = lock ? await q.for("update") : await q;
  return row;
}

/**
 * The sync's advisory locks of the employee (employees/sql/locks.ts: the same keys, sorted), so
 * a sync or SCIM write of this employee runs before or after the erasure, never during it.
 */
async function lockLikeTheSync(tx: DbOrTx, organizationId: string, s: Subject): Promise<void> {
  await tx.execute(sql`select count(pg_advisory_xact_lock(hashtextextended(k, 0)))
    from unnest((select array_agg(k order by k) from unnest(array['emp:' || ${organizationId}::text || ':' || ${s.externalEmployeeId}::text,
      'email:' || lower(nullif(${s.email}::text, ''))]) as k where k is not null)) as k`);
}

async function answer(tx: DbOrTx, organizationId: string, id: string, erasedAt: Date): Promise<EmployeeErasure> {
  return { pseudonym: pseudonymOf(id), erasedAt: erasedAt.toISOString(), employee: await getEmployee(tx, organizationId, id) };
}

/**
 * Erases an INACTIVE or TERMINATED employee of the organization (ACTIVE: 409; unknown or another
 * organization's: 404). Erasing an erased employee changes nothing and answers the same.
 */
export async function eraseEmployee(
  db: DbOrTx,
  organizationId: string,
  actor: EraseActor,
  id: string,
  audit: AuditContext = ADMIN_CLI,
): Promise<EmployeeErasure> {
  assertMayErase(actor);
  if (!isUuid(id)) throw notFound("Employee not found");
  return db.transaction(async (tx) => {
    const seen = await readSubject(tx, organizationId, id, false);
    if (!seen) throw notFound("Employee not found");
    if (seen.erasedAt) return answer(tx, organizationId, id, seen.erasedAt);
    await lockLikeTheSync(tx, organizationId, seen);
    const s = (await readSubject(tx, organizationId, id, true))!;
    if (s.erasedAt) return answer(tx, organizationId, id, s.erasedAt);
    if (s.status === "ACTIVE")
      throw new AppError("conflict", "The employee is ACTIVE: deactivate them first (status INACTIVE or TERMINATED through the HR sync), then erase");
    const pseudonym = pseudonymOf(id);
    const user = s.userId ? await eraseAccount(tx, organizationId, s.userId, id, pseudonym) : null;
    const scrub = scrubberFor(
      [
        s.firstName,
        s.lastName,
        s.displayName,
        [s.firstName, s.lastName].filter(Boolean).join(" "),
        s.email,
        s.phone,
        s.externalEmployeeId,
        ...(user?.values ?? []),
      ],
      pseudonym,
    );
    const [{ erasedAt }] = (await tx
      .update(employees)
      .set({
        externalEmployeeId: pseudonym,
        firstName: null,
        lastName: null,
        displayName: pseudonym,
        email: null,
        phone: null,
        supervisor: null,
        managerId: null,
        metadata: null,
        scimAttributes: null,
        scimDeletedAt: sql`coalesce(${employees.scimDeletedAt}, now())`,
        erasedAt: sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(employees.id, id), eq(employees.organizationId, organizationId)))
      .returning({ erasedAt: employees.erasedAt })) as [{ erasedAt: Date }];
    await dropAssignments(tx, organizationId, id, s, audit);
    const emails = [s.email, user?.email].filter((e): e is string => !!e);
    await scrubStoredCopies(tx, organizationId, { employeeId: id, userId: s.userId, oldExternalEmployeeId: s.externalEmployeeId, pseudonym, emails, scrub });
    await record(tx, organizationId, id, s.userId, user?.wasEnabled ?? false, audit);
    return answer(tx, organizationId, id, erasedAt);
  });
}

/** Roles, groups and sites go (the pseudonym holds none); other employees' supervisor naming this person is cleared (employee.updated each, audited). */
async function dropAssignments(tx: DbOrTx, organizationId: string, id: string, s: Subject, audit: AuditContext): Promise<void> {
  await tx.delete(employeeRoles).where(and(eq(employeeRoles.employeeId, id), eq(employeeRoles.organizationId, organizationId)));
  await tx.delete(employeeGroups).where(and(eq(employeeGroups.employeeId, id), eq(employeeGroups.organizationId, organizationId)));
  await tx.delete(employeeSites).where(and(eq(employeeSites.employeeId, id), eq(employeeSites.organizationId, organizationId)));
  if (!s.email) return;
  const reports = await tx
    .update(employees)
    .set({ supervisor: null, updatedAt: sql`now()` })
    .where(and(eq(employees.organizationId, organizationId), sql`lower(${employees.supervisor}->>'email') = lower(${s.email})`))
    .returning({ id: employees.id });
  for (const r of reports) {
    await recordChange(tx, { organizationId, resourceType: "employee", resourceId: r.id, change: "updated" });
    await recordAudit(tx, audit, { organizationId, action: "employee.updated", resourceType: "employee", resourceId: r.id, changedFields: ["supervisor"] });
  }
}

/**
 * The account: e-mail, username and name become the pseudonym, the password goes, every token
 * is refused from now (tokensValidAfter), admin rights go, and it is disabled for good. Its
 * welcome and password mails, sent or not, are deleted. Returns the erased values (for the scrubber).
 */
async function eraseAccount(tx: DbOrTx, organizationId: string, userId: string, employeeId: string, pseudonym: string) {
  // The users' last-admin guard takes this lock before changing admin or disabled flags (users/index.ts).
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`users:admins:${organizationId}`}, 0))`);
  const [u] = await tx
    .select({ email: users.email, username: users.username, name: users.name, isAdmin: users.isAdmin, disabled: users.disabled })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)))
    .for("update");
  if (!u) return null;
  if (u.isAdmin && !u.disabled) {
    const others = await tx.execute(
      sql`select id from ${users} where ${users.organizationId} = ${organizationId} and ${users.isAdmin} and not ${users.disabled} and ${users.id} <> ${userId} limit 1`,
    );
    if (others.length === 0) throw new AppError("conflict", "The employee's user is the organization's last active admin: make another user an admin first");
  }
  const address = accountAddressOf(employeeId);
  await tx
    .update(users)
    .set({
      email: address,
      username: address,
      name: pseudonym,
      passwordHash: null,
      mustResetPassword: false,
      isAdmin: false,
      disabled: true,
      tokensValidAfter: sql`now()`,
      erasedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.id, userId), eq(users.organizationId, organizationId)));
  await tx
    .delete(mailOutbox)
    .where(and(eq(mailOutbox.organizationId, organizationId), sql`(${mailOutbox.userId} = ${userId} or lower(${mailOutbox.toAddress}) = lower(${u.email}))`));
  return { email: u.email, values: [u.email, u.username, u.name], wasEnabled: !u.disabled };
}

/** The change log (employee.erased; user.disabled or user.updated) and the audit log, with field names only. */
async function record(tx: DbOrTx, organizationId: string, id: string, userId: string | null, wasEnabled: boolean, audit: AuditContext): Promise<void> {
  await recordChange(tx, { organizationId, resourceType: "employee", resourceId: id, change: "erased" });
  await recordAudit(tx, audit, { organizationId, action: "employee.erased", resourceType: "employee", resourceId: id, changedFields: ERASED_FIELDS });
  if (!userId) return;
  await recordChange(tx, { organizationId, resourceType: "user", resourceId: userId, change: wasEnabled ? "disabled" : "updated" });
  await recordAudit(tx, audit, { organizationId, action: "user.erased", resourceType: "user", resourceId: userId, changedFields: ERASED_USER_FIELDS });
}
