import { randomUUID } from "node:crypto";
import type { SqlTx } from "@insp/db";
import { EmployeeRuleError } from "../employees/rules.ts";
import { isUuid } from "../errors.ts";
import { syncEmployee } from "../employees/run.ts";
import { lockEmployee, lockEmployees } from "../employees/sql/locks.ts";
import type { SyncEmployee } from "../employees/types.ts";
import { normalizePatch } from "./patch-rewrites.ts";
import { ScimError, asScimError, checkIfMatch, scim } from "./protocol.ts";
import { LocksOutdated, scimTransaction } from "./transaction.ts";
import { currentOf, emailOf, externalIdOf, parseUser, ruleError, statusOf, text, toRecord, type Current, type Parsed } from "./user-record.ts";
import { getScimUser, type ScimAttributes, type ScimContext } from "./users.ts";

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
function write<T>(ctx: ScimContext, run: (tx: SqlTx) => Promise<T>): Promise<T> {
  const mapped = async (tx: SqlTx) => {
    try {
      return await run(tx);
    } catch (err) {
      throw err instanceof EmployeeRuleError ? ruleError(err) : err;
    }
  };
  return scimTransaction(ctx, mapped, { uniqueness: "A user with the same userName, externalId or e-mail was created meanwhile", retryUnique: true });
}

/** What the write changes beyond the employee record: the manager, the attributes kept for SCIM (with the ones it had), the deletion. */
interface Extra {
  managerId?: string | null | undefined;
  attributes?: { before: ScimAttributes | null; after: ScimAttributes | null };
  deleted?: boolean;
}

/** JSON with its keys sorted: jsonb hands objects back in an order of its own. */
const canonical = (v: unknown): string =>
  v && typeof v === "object"
    ? `{${Object.keys(v)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
        .join(",")}}`
    : JSON.stringify(v);

/** The names of the kept attributes that differ (an audit entry's changed fields: names, never values). */
function changedAttributes(before: ScimAttributes | null, after: ScimAttributes | null): string[] {
  const leaves = (k: ScimAttributes | null) => {
    const out = new Map<string, string>();
    for (const [key, v] of Object.entries(k ?? {})) {
      const name = key === "email" ? "emails" : key === "phone" ? "phoneNumbers" : key;
      if (v && typeof v === "object" && key !== "email" && key !== "phone")
        for (const [sub, x] of Object.entries(v)) out.set(key === "name" ? `name.${sub}` : sub, canonical(x));
      else out.set(name, canonical(v));
    }
    return out;
  };
  const [a, b] = [leaves(before), leaves(after)];
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k)).sort();
}

/**
 * The employee write of `record` with what SCIM adds (manager, kept attributes, deletion),
 * recorded as a sync request of one employee. When only what SCIM adds changed, the sync
 * wrote nothing: the employee's updatedAt (meta.lastModified), its change `updated` and its
 * audit entry are written here; otherwise the sync's audit entry gets their names too.
 */
async function apply(tx: SqlTx, ctx: ScimContext, record: SyncEmployee, extra: Extra): Promise<string> {
  const syncRequestId = randomUUID();
  await tx`insert into sync_requests (id, organization_id, client_id, sync_batch_id, status, dry_run, request_id, total, completed_at)
    values (${syncRequestId}, ${ctx.organizationId}, ${ctx.clientId}, 'scim', 'completed', false, ${ctx.requestId}, 1, now())`;
  const outcome = await syncEmployee(tx, { organizationId: ctx.organizationId, requestId: syncRequestId }, record);
  const id = outcome.result.employeeId!;
  const org = ctx.organizationId;
  const changed: string[] = [];
  if (
    extra.managerId !== undefined &&
    (
      await tx`update employees set manager_id = ${extra.managerId} where id = ${id} and organization_id = ${org} and manager_id is distinct from ${extra.managerId}::uuid returning id`
    ).length
  )
    changed.push("manager");
  // A User without displayName and name parts has none (the sync keeps the one an employee had: an HR system may leave it out).
  if (
    record.displayName === null &&
    (await tx`update employees set display_name = null where id = ${id} and organization_id = ${org} and display_name is not null returning id`).length
  ) {
    await tx`update users set name = null, updated_at = now() where id = (select user_id from employees where id = ${id} and organization_id = ${org}) and organization_id = ${org}`;
    changed.push("displayName");
  }
  if (extra.attributes) {
    const names = changedAttributes(extra.attributes.before, extra.attributes.after);
    if (names.length) {
      await tx`update employees set scim_attributes = ${extra.attributes.after === null ? null : JSON.stringify(extra.attributes.after)}::jsonb where id = ${id} and organization_id = ${org}`;
      changed.push(...names);
    }
  }
  if (changed.length) {
    const [alone] =
      await tx`update employees set updated_at = now() where id = ${id} and organization_id = ${org} and last_sync_request_id is distinct from ${syncRequestId}::uuid returning id`;
    if (alone) {
      await tx`insert into change_events (organization_id, resource_type, resource_id, change) values (${org}, 'employee', ${id}, 'updated')`;
      await tx`insert into audit_log (organization_id, actor_type, actor_id, action, resource_type, resource_id, changed_fields, request_id)
        values (${org}, ${ctx.clientId ? "oauth_client" : "anonymous"}, ${ctx.clientId}, 'employee.updated', 'employee', ${id}, ${changed}::text[], ${ctx.requestId})`;
    } else {
      // The sync's audit entry of this transaction: the newest of the employee (its locks are held).
      await tx`update audit_log set changed_fields = changed_fields || ${changed}::text[]
        where organization_id = ${org} and seq = (select max(seq) from audit_log where organization_id = ${org} and resource_type = 'employee' and resource_id = ${id})`;
    }
  }
  await tx`update employees set scim_deleted_at = ${extra.deleted ? tx`now()` : null} where id = ${id} and organization_id = ${org} and (scim_deleted_at is not null or ${!!extra.deleted})`;
  await tx`insert into sync_request_items (organization_id, request_id, idx, external_employee_id, status, result)
    values (${org}, ${syncRequestId}, 0, ${record.externalEmployeeId}, 'done', ${JSON.stringify(outcome.result)}::jsonb)`;
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
    const { record, managerId, attributes } = await toRecord(tx, ctx, u, externalEmployeeId, current, { requireEmail: true, status });
    return getScimUser(
      ctx,
      await apply(tx, ctx, record, { managerId, attributes: { before: current?.scimAttributes ?? null, after: attributes }, deleted: false }),
      tx,
    );
  });
}

/** An employee deleted through SCIM, as a User created again finds it (its metadata and manager, which the new body replaces). */
async function currentOfDeleted(tx: SqlTx, ctx: ScimContext, id: string): Promise<Current> {
  const [row] = await tx<
    {
      email: string | null;
      status: Current["status"];
      metadata: Record<string, unknown> | null;
      manager_id: string | null;
      external_employee_id: string;
      scim_attributes: ScimAttributes | null;
    }[]
  >`
    select external_employee_id, email, status, metadata, manager_id, scim_attributes from employees where organization_id = ${ctx.organizationId} and id = ${id} for update`;
  return {
    id,
    externalEmployeeId: row!.external_employee_id,
    email: row!.email,
    status: row!.status,
    metadata: row!.metadata,
    managerId: row!.manager_id,
    scimAttributes: row!.scim_attributes,
  };
}

/** What a write does to the User it finds: the resource it becomes (null: nothing changes), or its deletion. */
type Change = { kind: "replace"; body: unknown } | { kind: "patch"; body: unknown } | { kind: "delete" };

/** PATCH operations applied by scimmy to the resource (after the identity providers' forms are made standard: normalizePatch); null when nothing changes. */
async function patched(resource: Record<string, unknown>, body: unknown): Promise<Parsed | null> {
  let result: Record<string, unknown> | undefined;
  try {
    const S = scim();
    const ops = normalizePatch(body, resource, "User");
    if (!ops.Operations.length) return null; // only attributes the service does not keep
    const out = await new S.Messages.PatchOp(ops as ConstructorParameters<typeof S.Messages.PatchOp>[0]).apply(new S.Schemas.User(resource, "out"));
    result = out ? (JSON.parse(JSON.stringify(out)) as Record<string, unknown>) : undefined;
  } catch (err) {
    throw asScimError(err) ?? err;
  }
  return result ? parseUser(result) : null;
}

/** The externalEmployeeIds and e-mails a write involves: the employee's own and those the User gets. */
function involved(current: Current, u: Parsed | null): { ids: string[]; emails: (string | null)[] } {
  return {
    ids: [current.externalEmployeeId, ...(u ? [externalIdOf(u, current.externalEmployeeId)] : [])],
    emails: [current.email, ...(u ? [emailOf(u)] : [])],
  };
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
    const { record, managerId, attributes } = await toRecord(tx, ctx, u, wanted, current, { requireEmail, status: statusOf(u.active, current.status) });
    await apply(tx, ctx, record, { managerId, attributes: { before: current.scimAttributes, after: attributes } });
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
