import { randomUUID } from "node:crypto";
import { EmployeeRuleError } from "../employees/rules.ts";
import { isUuid } from "../errors.ts";
import { lockEmployee, lockEmployees, type Tx } from "../employees/store.ts";
import { syncEmployee } from "../employees/sync-employee.ts";
import type { SyncEmployee } from "../employees/types.ts";
import { ScimError, asScimError, checkIfMatch, normalizePatch, scim } from "./protocol.ts";
import { LocksOutdated, scimTransaction } from "./transaction.ts";
import { currentOf, emailOf, externalIdOf, parseUser, ruleError, statusOf, text, toRecord, type Current, type Parsed } from "./user-record.ts";
import { getScimUser, type ScimContext } from "./users.ts";

/**
 * Writing SCIM Users. Each write becomes an employee record that runs through the employee
 * sync's own transaction (syncEmployee: the advisory locks, one read, the rules, one write with
 * the change log and the audit entry), so SCIM and HR syncs apply the same rules to the same
 * employees: e-mails unique, accounts adopted or created, disabled on deactivation, enabled again
 * on reactivation. It runs here in the API, one transaction per request (SCIM answers with the
 * resource as written), recorded as a sync request of one employee (sync_batch_id "scim") for
 * the audit log and `lastSyncRequestId`.
 *
 * PUT, PATCH and DELETE decide on the employee as it is under its locks: the advisory locks of
 * every externalEmployeeId and e-mail the write involves (the old and the new ones), sorted and
 * taken together before the row lock (the workers' order), then the row, then If-Match, then the
 * change applied to what was just read. A change made meanwhile (an HR sync, another SCIM
 * request) is never overwritten with an older copy.
 */

/** One write in one transaction; a rule of the sync that fails is a SCIM error; deadlocks and lost races run it again. */
function write<T>(ctx: ScimContext, run: (tx: Tx) => Promise<T>): Promise<T> {
  const mapped = async (tx: Tx) => {
    try {
      return await run(tx);
    } catch (err) {
      throw err instanceof EmployeeRuleError ? ruleError(err) : err;
    }
  };
  return scimTransaction(ctx, mapped, { uniqueness: "A user with the same userName, externalId or e-mail was created meanwhile", retryUnique: true });
}

/** The employee write of `record` with what SCIM adds (manager, deletion), recorded as a sync request of one employee. */
async function apply(tx: Tx, ctx: ScimContext, record: SyncEmployee, extra: { managerId?: string | null | undefined; deleted?: boolean }): Promise<string> {
  const syncRequestId = randomUUID();
  await tx`insert into sync_requests (id, organization_id, client_id, sync_batch_id, status, dry_run, request_id, total, completed_at)
    values (${syncRequestId}, ${ctx.organizationId}, ${ctx.clientId}, 'scim', 'completed', false, ${ctx.requestId}, 1, now())`;
  const outcome = await syncEmployee(tx, { organizationId: ctx.organizationId, requestId: syncRequestId }, record);
  const id = outcome.result.employeeId!;
  if (extra.managerId !== undefined) await tx`update employees set manager_id = ${extra.managerId} where id = ${id} and organization_id = ${ctx.organizationId}`;
  await tx`update employees set scim_deleted_at = ${extra.deleted ? tx`now()` : null} where id = ${id} and organization_id = ${ctx.organizationId} and (scim_deleted_at is not null or ${!!extra.deleted})`;
  await tx`insert into sync_request_items (organization_id, request_id, idx, external_employee_id, status, result)
    values (${ctx.organizationId}, ${syncRequestId}, 0, ${record.externalEmployeeId}, 'done', ${JSON.stringify(outcome.result)}::jsonb)`;
  return id;
}

/**
 * POST /Users. A userName or externalId another User of the organization has is a 409
 * uniqueness; the externalId (or, without one, the userName) becomes the externalEmployeeId. A
 * User deleted through SCIM and created again with its externalId comes back (its employee,
 * account, history and HR metadata; its manager only when the body names one), ACTIVE unless
 * the body says otherwise.
 */
export async function createScimUser(ctx: ScimContext, body: unknown): Promise<Record<string, unknown>> {
  const u = parseUser(body);
  const externalEmployeeId = externalIdOf(u, text(u.userName, "userName", 255) ?? "");
  if (!externalEmployeeId) throw new ScimError(400, "invalidValue", "userName is required");
  return write(ctx, async (tx) => {
    await lockEmployee(tx, ctx.organizationId, externalEmployeeId, emailOf(u));
    const taken = await tx<{ id: string; external_employee_id: string; deleted: boolean }[]>`
      select e.id, e.external_employee_id, e.scim_deleted_at is not null as deleted
      from employees e left join users u on u.id = e.user_id
      where e.organization_id = ${ctx.organizationId} and (e.external_employee_id = ${externalEmployeeId} or lower(u.username) = lower(${u.userName ?? ""}))`;
    const live = taken.find((t) => !t.deleted);
    if (live) {
      const what = live.external_employee_id === externalEmployeeId ? `externalId '${externalEmployeeId}'` : `userName '${u.userName}'`;
      throw new ScimError(409, "uniqueness", `A User with ${what} already exists`);
    }
    const revived = taken.find((t) => t.deleted && t.external_employee_id === externalEmployeeId);
    const current = revived ? await currentOfDeleted(tx, ctx, revived.id) : null;
    const status = statusOf(u.active ?? true, current?.status ?? null);
    const { record, managerId } = await toRecord(tx, ctx, u, externalEmployeeId, current, { requireEmail: true, status });
    return getScimUser(ctx, await apply(tx, ctx, record, { managerId, deleted: false }), tx);
  });
}

/** An employee deleted through SCIM, as a User created again finds it (its metadata and manager, which the new body replaces). */
async function currentOfDeleted(tx: Tx, ctx: ScimContext, id: string): Promise<Current> {
  const [row] = await tx<{ email: string | null; status: Current["status"]; metadata: Record<string, unknown> | null; manager_id: string | null; external_employee_id: string }[]>`
    select external_employee_id, email, status, metadata, manager_id from employees where organization_id = ${ctx.organizationId} and id = ${id} for update`;
  return { id, externalEmployeeId: row!.external_employee_id, email: row!.email, status: row!.status, metadata: row!.metadata, managerId: row!.manager_id };
}

/** What a write does to the User it finds: the resource it becomes (null: nothing changes), or its deletion. */
type Change = { kind: "replace"; body: unknown } | { kind: "patch"; body: unknown } | { kind: "delete" };

/** PATCH operations applied by scimmy to the resource (after the identity providers' forms are made standard: normalizePatch); null when nothing changes. */
async function patched(resource: Record<string, unknown>, body: unknown): Promise<Parsed | null> {
  let result: Record<string, unknown> | undefined;
  try {
    const S = scim();
    const out = await new S.Messages.PatchOp(normalizePatch(body, resource) as ConstructorParameters<typeof S.Messages.PatchOp>[0]).apply(new S.Schemas.User(resource, "out"));
    result = out ? (JSON.parse(JSON.stringify(out)) as Record<string, unknown>) : undefined;
  } catch (err) {
    throw asScimError(err) ?? err;
  }
  return result ? parseUser(result) : null;
}

/** The externalEmployeeIds and e-mails a write involves: the employee's own and those the User gets. */
function involved(current: Current, u: Parsed | null): { ids: string[]; emails: (string | null)[] } {
  return { ids: [current.externalEmployeeId, ...(u ? [externalIdOf(u, current.externalEmployeeId)] : [])], emails: [current.email, ...(u ? [emailOf(u)] : [])] };
}

const covers = (held: { ids: string[]; emails: (string | null)[] }, needed: { ids: string[]; emails: (string | null)[] }) => {
  const emails = new Set(held.emails.filter(Boolean).map((e) => e!.toLowerCase()));
  return needed.ids.every((i) => held.ids.includes(i)) && needed.emails.every((e) => !e || emails.has(e.toLowerCase()));
};

/**
 * PUT, PATCH and DELETE of /Users/{id}: a look at the employee to learn whose locks the write
 * needs (the old and the new externalId and e-mail), the advisory locks, the row lock, the
 * resource read again, If-Match against it, the change applied to it, the write. When the second
 * read needs locks the first did not foresee, the transaction runs again.
 */
async function modify(ctx: ScimContext, id: string, ifMatch: string | undefined, change: Change): Promise<Record<string, unknown> | null> {
  if (!isUuid(id)) throw new ScimError(404, undefined, `User ${id} not found`);
  return write(ctx, async (tx) => {
    const seen = await currentOf(tx, ctx, id, false);
    if (!seen) throw new ScimError(404, undefined, `User ${id} not found`);
    // A PUT's body (validated once the User is known to exist: an unknown id is a 404 whatever the body).
    const replacement = change.kind === "replace" ? parseUser(change.body) : null;
    // What the change would involve, judged on the unlocked look (its errors count only under the locks).
    const foreseen = change.kind === "patch" ? await patched(await getScimUser(ctx, id, tx), change.body).catch(() => null) : replacement;
    const held = involved(seen, foreseen);
    await lockEmployees(tx, ctx.organizationId, held.ids, held.emails);
    const current = await currentOf(tx, ctx, id, true);
    if (!current) throw new ScimError(404, undefined, `User ${id} not found`);
    const resource = await getScimUser(ctx, id, tx);
    checkIfMatch(ifMatch, (resource.meta as { version: string }).version);
    if (change.kind === "delete") {
      if (!covers(held, involved(current, null))) throw new LocksOutdated();
      await apply(tx, ctx, { externalEmployeeId: current.externalEmployeeId, status: "TERMINATED", updateMode: "replace" }, { deleted: true });
      return null;
    }
    const u = change.kind === "patch" ? await patched(resource, change.body) : replacement;
    if (!u) return resource;
    if (!covers(held, involved(current, u))) throw new LocksOutdated();
    const wanted = externalIdOf(u, current.externalEmployeeId);
    if (wanted !== current.externalEmployeeId) {
      const [other] = await tx`select 1 from employees where organization_id = ${ctx.organizationId} and external_employee_id = ${wanted} and id <> ${id}`;
      if (other) throw new ScimError(409, "uniqueness", `A User with externalId '${wanted}' already exists`);
      await tx`update employees set external_employee_id = ${wanted}, updated_at = now() where id = ${id} and organization_id = ${ctx.organizationId}`;
    }
    // PUT needs an e-mail; a PATCH may not take away the one the User has.
    const requireEmail = change.kind === "replace" || current.email !== null;
    const { record, managerId } = await toRecord(tx, ctx, u, wanted, current, { requireEmail, status: statusOf(u.active, current.status) });
    await apply(tx, ctx, record, { managerId });
    return getScimUser(ctx, id, tx);
  });
}

/** PUT /Users/{id}: the resource replaced by the body (an externalId change renames the employee's externalEmployeeId). */
export async function replaceScimUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  return (await modify(ctx, id, ifMatch, { kind: "replace", body }))!;
}

/** PATCH /Users/{id}: the operations applied to the resource as it is under its locks, written like a PUT. Nothing changed: the resource as it is, nothing written. */
export async function patchScimUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string): Promise<Record<string, unknown>> {
  return (await modify(ctx, id, ifMatch, { kind: "patch", body }))!;
}

/** DELETE /Users/{id}: the employee becomes TERMINATED (account disabled, assignments removed) and is no SCIM resource any more. */
export async function deleteScimUser(ctx: ScimContext, id: string, ifMatch?: string): Promise<void> {
  await modify(ctx, id, ifMatch, { kind: "delete" });
}
