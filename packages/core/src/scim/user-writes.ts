import { randomUUID } from "node:crypto";
import { PG, pgErrorCode } from "@insp/db";
import { EmployeeRuleError } from "../employees/rules.ts";
import { lockEmployee, type Tx } from "../employees/store.ts";
import { syncEmployee } from "../employees/sync-employee.ts";
import type { SyncEmployee } from "../employees/types.ts";
import { ENTERPRISE, ScimError, asScimError, checkIfMatch, normalizePatch, normalizeResource, scim } from "./protocol.ts";
import { getScimUser, type ScimContext } from "./users.ts";

/**
 * Writing SCIM Users. Each write becomes an employee record that runs through the employee
 * sync's own transaction (syncEmployee: the advisory locks, one read, the rules, one write with
 * the change log and the audit entry), so SCIM and HR syncs apply the same rules to the same
 * employees: e-mails unique, accounts adopted or created, disabled on deactivation, enabled again
 * on reactivation. It runs here in the API, one transaction per request (SCIM answers with the
 * resource as written), recorded as a sync request of one employee (sync_batch_id "scim") for
 * the audit log and `lastSyncRequestId`.
 */

const LONG_TEXT = 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Parsed = Record<string, unknown> & { userName?: string; externalId?: string; active?: boolean; name?: { givenName?: string; familyName?: string; formatted?: string } };

/** A User body validated and coerced by scimmy's schema (read-only attributes such as id, groups and meta are dropped). */
function parseUser(body: unknown): Parsed {
  try {
    return JSON.parse(JSON.stringify(new (scim().Schemas.User)(normalizeResource(body), "in"))) as Parsed;
  } catch (err) {
    throw asScimError(err) ?? err;
  }
}

const text = (v: unknown, what: string, max = LONG_TEXT): string | null => {
  if (v === undefined || v === null || v === "") return null;
  const s = String(v).trim();
  if (s.length > max) throw new ScimError(400, "invalidValue", `${what} must be at most ${max} characters`);
  return s || null;
};

/** The e-mail the employee gets: the work one, else the primary, else the first, else userName when it is an e-mail. */
function emailOf(u: Parsed): string | null {
  const emails = (u.emails as { value?: string; type?: string; primary?: boolean }[] | undefined) ?? [];
  const chosen = emails.find((e) => e.type?.toLowerCase() === "work") ?? emails.find((e) => e.primary) ?? emails[0];
  const email = text(chosen?.value, "emails.value", 320) ?? (u.userName && EMAIL.test(u.userName) ? u.userName : null);
  if (email !== null && !EMAIL.test(email)) throw new ScimError(400, "invalidValue", `'${email}' is not a valid e-mail address`);
  return email;
}

interface Current {
  id: string;
  externalEmployeeId: string;
  metadata: Record<string, unknown> | null;
  managerId: string | null;
}

/** The employee record a full User resource amounts to (replace semantics: what the resource leaves out is cleared). */
async function toRecord(tx: Tx, ctx: ScimContext, u: Parsed, externalEmployeeId: string, current: Current | null): Promise<{ record: SyncEmployee; managerId: string | null | undefined }> {
  const userName = text(u.userName, "userName", 320);
  if (!userName) throw new ScimError(400, "invalidValue", "userName is required");
  const ext = (u[ENTERPRISE] ?? {}) as { department?: string; employeeNumber?: string; manager?: { value?: string } };
  const metadata = { ...(current?.metadata ?? {}) };
  if (ext.employeeNumber !== undefined) metadata.employeeNumber = text(ext.employeeNumber, "employeeNumber", 255);
  else delete metadata.employeeNumber;
  let managerId: string | null | undefined;
  let supervisor: SyncEmployee["supervisor"];
  if (ext.manager?.value) {
    const [m] = await tx<{ id: string; display_name: string | null; email: string | null }[]>`
      select id, display_name, email from employees where organization_id = ${ctx.organizationId} and id::text = ${ext.manager.value} and scim_deleted_at is null`;
    if (!m) throw new ScimError(400, "invalidValue", `manager '${ext.manager.value}' is not a User of this organization`);
    if (m.id === current?.id) throw new ScimError(400, "invalidValue", "A user cannot be their own manager");
    managerId = m.id;
    supervisor = { ...(m.display_name ? { name: m.display_name } : {}), ...(m.email ? { email: m.email } : {}) };
  } else if (current?.managerId) {
    managerId = null;
    supervisor = null;
  }
  const active = u.active !== false;
  const record: SyncEmployee = {
    externalEmployeeId,
    status: active ? "ACTIVE" : "INACTIVE",
    firstName: text(u.name?.givenName, "name.givenName"),
    lastName: text(u.name?.familyName, "name.familyName"),
    // Without a displayName, the name's parts (the HR sync's own default).
    displayName: text(u.displayName, "displayName") ?? (([u.name?.givenName, u.name?.familyName].filter(Boolean).join(" ") || null) as string | null),
    email: emailOf(u),
    phone: text((u.phoneNumbers as { value?: string }[] | undefined)?.[0]?.value, "phoneNumbers.value", 255),
    jobTitle: text(u.title, "title"),
    department: text(ext.department, "department", 255),
    ...(supervisor !== undefined ? { supervisor } : {}),
    metadata: Object.keys(metadata).length ? metadata : null,
    userAccount: { username: userName, forcePasswordReset: false, sendWelcomeEmail: false },
    updateMode: "additive",
  };
  return { record, managerId };
}

/** Rules of the employee sync that fail a SCIM write: conflicts with other users are 409 uniqueness, the rest 400. */
function ruleError(err: EmployeeRuleError): ScimError {
  return /already|taken|administrator/i.test(err.message) ? new ScimError(409, "uniqueness", err.message) : new ScimError(400, "invalidValue", err.message);
}

/** One write in one transaction, retried on a deadlock or a lost race for a unique key (like every employee transaction). */
async function write(ctx: ScimContext, run: (tx: Tx, syncRequestId: string) => Promise<string>): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.$client.begin(async (tx: Tx) => {
        const syncRequestId = randomUUID();
        await tx`insert into sync_requests (id, organization_id, client_id, sync_batch_id, status, dry_run, request_id, total, completed_at)
          values (${syncRequestId}, ${ctx.organizationId}, ${ctx.clientId}, 'scim', 'completed', false, ${ctx.requestId}, 1, now())`;
        return run(tx, syncRequestId);
      });
    } catch (err) {
      if (err instanceof EmployeeRuleError) throw ruleError(err);
      const code = pgErrorCode(err);
      if (code === PG.uniqueViolation && attempt >= 3) throw new ScimError(409, "uniqueness", "A user with the same userName, externalId or e-mail was created meanwhile");
      if (attempt >= 3 || (code !== PG.deadlock && code !== PG.serializationFailure && code !== PG.uniqueViolation)) throw err;
    }
  }
}

/** The employee write of `record` inside `write`, with what SCIM adds (manager, deletion), and its sync item. */
async function apply(tx: Tx, ctx: ScimContext, syncRequestId: string, record: SyncEmployee, extra: { managerId?: string | null | undefined; deleted?: boolean }): Promise<string> {
  const outcome = await syncEmployee(tx, { organizationId: ctx.organizationId, requestId: syncRequestId }, record);
  const id = outcome.result.employeeId!;
  if (extra.managerId !== undefined) await tx`update employees set manager_id = ${extra.managerId} where id = ${id} and organization_id = ${ctx.organizationId}`;
  await tx`update employees set scim_deleted_at = ${extra.deleted ? tx`now()` : null} where id = ${id} and organization_id = ${ctx.organizationId} and (scim_deleted_at is not null or ${!!extra.deleted})`;
  await tx`insert into sync_request_items (organization_id, request_id, idx, external_employee_id, status, result)
    values (${ctx.organizationId}, ${syncRequestId}, 0, ${record.externalEmployeeId}, 'done', ${JSON.stringify(outcome.result)}::jsonb)`;
  return id;
}

async function currentOf(tx: Tx, ctx: ScimContext, id: string): Promise<Current | null> {
  const [row] = await tx<{ id: string; external_employee_id: string; metadata: Record<string, unknown> | null; manager_id: string | null }[]>`
    select id, external_employee_id, metadata, manager_id from employees where organization_id = ${ctx.organizationId} and id = ${id} and scim_deleted_at is null for update`;
  return row ? { id: row.id, externalEmployeeId: row.external_employee_id, metadata: row.metadata, managerId: row.manager_id } : null;
}

/**
 * POST /Users. A userName or externalId another User of the organization has is a 409
 * uniqueness; the externalId (or, without one, the userName) becomes the externalEmployeeId. A
 * User deleted through SCIM and created again with its externalId comes back (its employee,
 * account and history), ACTIVE unless the body says otherwise.
 */
export async function createScimUser(ctx: ScimContext, body: unknown): Promise<Record<string, unknown>> {
  const u = parseUser(body);
  const externalEmployeeId = text(u.externalId, "externalId", 255) ?? text(u.userName, "userName", 255);
  if (!externalEmployeeId) throw new ScimError(400, "invalidValue", "userName is required");
  const id = await write(ctx, async (tx, syncRequestId) => {
    await lockEmployee(tx, ctx.organizationId, externalEmployeeId, emailOf(u));
    const taken = await tx<{ id: string; external_employee_id: string; deleted: boolean; user_name: string | null }[]>`
      select e.id, e.external_employee_id, e.scim_deleted_at is not null as deleted, u.username as user_name
      from employees e left join users u on u.id = e.user_id
      where e.organization_id = ${ctx.organizationId} and (e.external_employee_id = ${externalEmployeeId} or lower(u.username) = lower(${u.userName ?? ""}))`;
    const live = taken.find((t) => !t.deleted);
    if (live) {
      const what = live.external_employee_id === externalEmployeeId ? `externalId '${externalEmployeeId}'` : `userName '${u.userName}'`;
      throw new ScimError(409, "uniqueness", `A User with ${what} already exists`);
    }
    const revived = taken.find((t) => t.deleted && t.external_employee_id === externalEmployeeId);
    const current = revived ? { id: revived.id, externalEmployeeId, metadata: null, managerId: null } : null;
    const { record, managerId } = await toRecord(tx, ctx, u, externalEmployeeId, current);
    return apply(tx, ctx, syncRequestId, record, { managerId, deleted: false });
  });
  return getScimUser(ctx, id);
}

/** PUT /Users/{id}: the resource replaced by the body (an externalId change renames the employee's externalEmployeeId). */
export async function replaceScimUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  checkIfMatch(ifMatch, versionOfResource(await getScimUser(ctx, id)));
  return writeUser(ctx, id, parseUser(body));
}

const versionOfResource = (r: Record<string, unknown>) => (r.meta as { version: string }).version;

async function writeUser(ctx: ScimContext, id: string, u: Parsed): Promise<Record<string, unknown>> {
  await write(ctx, async (tx, syncRequestId) => {
    const current = await currentOf(tx, ctx, id);
    if (!current) throw new ScimError(404, undefined, `User ${id} not found`);
    const wanted = text(u.externalId, "externalId", 255) ?? current.externalEmployeeId;
    if (wanted !== current.externalEmployeeId) {
      await lockEmployee(tx, ctx.organizationId, wanted, emailOf(u));
      const [other] = await tx`select 1 from employees where organization_id = ${ctx.organizationId} and external_employee_id = ${wanted} and id <> ${id}`;
      if (other) throw new ScimError(409, "uniqueness", `A User with externalId '${wanted}' already exists`);
      await tx`update employees set external_employee_id = ${wanted}, updated_at = now() where id = ${id} and organization_id = ${ctx.organizationId}`;
    }
    const { record, managerId } = await toRecord(tx, ctx, u, wanted, current);
    return apply(tx, ctx, syncRequestId, record, { managerId });
  });
  return getScimUser(ctx, id);
}

/**
 * PATCH /Users/{id}: the operations applied by scimmy to the current resource (after the
 * identity providers' forms are made standard: normalizePatch), then written like a PUT. Nothing
 * changed: the resource as it is, nothing written.
 */
export async function patchScimUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  const current = await getScimUser(ctx, id);
  checkIfMatch(ifMatch, versionOfResource(current));
  let patched: Record<string, unknown> | undefined;
  try {
    const S = scim();
    const result = await new S.Messages.PatchOp(normalizePatch(body, current) as ConstructorParameters<typeof S.Messages.PatchOp>[0]).apply(new S.Schemas.User(current, "out"));
    patched = result ? (JSON.parse(JSON.stringify(result)) as Record<string, unknown>) : undefined;
  } catch (err) {
    throw asScimError(err) ?? err;
  }
  if (!patched) return current;
  return writeUser(ctx, id, parseUser(patched));
}

/** DELETE /Users/{id}: the employee becomes TERMINATED (account disabled, assignments removed) and is no SCIM resource any more. */
export async function deleteScimUser(ctx: ScimContext, id: string, ifMatch?: string): Promise<void> {
  checkIfMatch(ifMatch, versionOfResource(await getScimUser(ctx, id)));
  await write(ctx, async (tx, syncRequestId) => {
    const current = await currentOf(tx, ctx, id);
    if (!current) throw new ScimError(404, undefined, `User ${id} not found`);
    return apply(tx, ctx, syncRequestId, { externalEmployeeId: current.externalEmployeeId, status: "TERMINATED", updateMode: "replace" }, { deleted: true });
  });
}
