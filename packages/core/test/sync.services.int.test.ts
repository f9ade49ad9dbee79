import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlTx } from "@insp/db";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { chainKeys, createSyncRequest, loadSyncStatus, runSyncItem, seedDemo, type DemoSeed, type NewItem, type SyncEmployee } from "../src/index.ts";
import { dryRunSync } from "../src/employees/dry-run.ts";
import { EmployeeRuleError } from "../src/employees/rules.ts";
import { syncEmployee } from "../src/employees/run.ts";
import { readEmployeeContext, toEmployeeContext } from "../src/employees/sql/read-context.ts";

/**
 * The employee sync's services against a real database, without an API or a worker: the rules
 * and the writes of one employee (syncEmployee), one item of a request as a worker runs it
 * (runSyncItem), the dry run, and what the read of an employee's transaction finds from the
 * record alone (its keys are taken from the record in SQL: the e-mail given, cleared or stored,
 * the account's username, and for ACTIVE records the roles, groups and sites named).
 */

let db: TestDatabase;
let t: DemoSeed;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
});
afterAll(() => db?.close());

let n = 0;
const employee = (extra: Partial<SyncEmployee> = {}): SyncEmployee => ({
  externalEmployeeId: `svc-${++n}-${Date.now()}`,
  status: "ACTIVE",
  updateMode: "replace",
  ...extra,
});
const ctx = () => ({ organizationId: t.organization.id, requestId: "00000000-0000-4000-8000-000000000000" });
const row = async (externalId: string) =>
  (
    await db.sql<{ id: string; status: string; department: string | null; updated_at: Date; user_id: string | null }[]>`
    select id, status, department, updated_at, user_id from employees where organization_id = ${t.organization.id} and external_employee_id = ${externalId}`
  )[0];
const changes = async (employeeId: string) =>
  (await db.sql<{ n: number }[]>`select count(*)::int as n from change_events where resource_id = ${employeeId}`)[0]!.n;
const inTx = <T>(fn: (tx: SqlTx) => Promise<T>) => db.sql.begin((tx) => fn(tx as unknown as SqlTx)) as Promise<T>;
const read = async (e: SyncEmployee) => toEmployeeContext((await inTx((tx) => readEmployeeContext(tx, t.organization.id, e)))[0]!);

describe("syncEmployee", () => {
  it("creates the employee with its account and assignments, and a repeat of the same record writes nothing", async () => {
    const e = employee({
      email: `svc-${n}@example.test`,
      userAccount: { forcePasswordReset: false, sendWelcomeEmail: false },
      roles: ["inspector"],
      groups: [{ groupName: t.groups[0]!.name }],
      sites: [{ id: t.sites[0]!.id }],
    });
    const created = await inTx((tx) => syncEmployee(tx, ctx(), e));
    expect(created).toMatchObject({ createdEmployee: true, createdUser: true, result: { status: "CREATED", warnings: [] } });
    const stored = (await row(e.externalEmployeeId))!;
    expect(stored).toMatchObject({ id: created.result.employeeId, status: "ACTIVE", user_id: created.result.userId });
    const [assigned] = await db.sql<{ roles: number; groups: number; sites: number }[]>`
      select (select count(*)::int from employee_roles where employee_id = ${stored.id}) as roles,
             (select count(*)::int from employee_groups where employee_id = ${stored.id}) as groups,
             (select count(*)::int from employee_sites where employee_id = ${stored.id}) as sites`;
    expect(assigned).toEqual({ roles: 1, groups: 1, sites: 1 });

    const logged = await changes(stored.id);
    expect(logged).toBe(1);
    const again = await inTx((tx) => syncEmployee(tx, ctx(), e));
    expect(again).toMatchObject({ createdEmployee: false, createdUser: false, result: { status: "UPDATED", employeeId: stored.id, userId: stored.user_id } });
    expect((await row(e.externalEmployeeId))!.updated_at).toEqual(stored.updated_at);
    expect(await changes(stored.id)).toBe(logged);
  });

  it("throws the rule's message when a rule fails, and the caller's rollback leaves nothing", async () => {
    const e = employee({ roles: ["site_manager"] });
    await expect(inTx((tx) => syncEmployee(tx, ctx(), e))).rejects.toThrow(
      new EmployeeRuleError("Cannot assign site_manager role: employee must have at least one site assigned"),
    );
    expect(await row(e.externalEmployeeId)).toBeUndefined();
  });
});

/** A recorded request of these employees, as the API records one (items of one chain in order). */
async function request(employees: SyncEmployee[]) {
  const items: NewItem[] = employees.map((e, idx) => ({ idx, externalEmployeeId: e.externalEmployeeId, input: e }));
  chainKeys(employees).forEach((key, i) => (items[i]!.chainKey = key));
  const r = await createSyncRequest(db.db, { organizationId: t.organization.id, clientId: null, syncBatchId: null, dryRun: false, items });
  const job = (idx: number) => ({ organizationId: t.organization.id, requestId: r.requestId, itemId: r.items.find((i) => i.idx === idx)!.id });
  return { requestId: r.requestId, job };
}

describe("runSyncItem", () => {
  it("runs one item as a worker does: the employee and the item's outcome together, then names the next item of its chain", async () => {
    const first = employee({ department: "Ops" });
    const second = { ...first, department: "Sales" };
    const r = await request([first, second]);

    const ran = await runSyncItem(db.db, r.job(0), { lastAttempt: false });
    expect(ran).toMatchObject({ kind: "done", successor: { id: r.job(1).itemId, idx: 1 }, outboxIds: [] });
    expect((await row(first.externalEmployeeId))!.department).toBe("Ops");
    // A repeated job (a redelivery) changes nothing and still names the successor.
    expect(await runSyncItem(db.db, r.job(0), { lastAttempt: false })).toMatchObject({ kind: "skipped", successor: { id: r.job(1).itemId, idx: 1 } });

    expect(await runSyncItem(db.db, r.job(1), { lastAttempt: false })).toMatchObject({ kind: "done", successor: null });
    expect((await row(first.externalEmployeeId))!.department).toBe("Sales");
    const status = await loadSyncStatus(db.db, t.organization.id, r.requestId);
    expect(status).toMatchObject({ status: "completed", processed: 2, errors: [] });
    expect(status!.results!.map((x) => x.status)).toEqual(["CREATED", "UPDATED"]);
  });

  it("records a failed rule as the item's error without touching the other items' employees", async () => {
    const bad = employee({ roles: ["site_manager"] });
    const good = employee();
    const r = await request([bad, good]);
    expect(await runSyncItem(db.db, r.job(0), { lastAttempt: false })).toMatchObject({
      kind: "rule-failed",
      message: "Cannot assign site_manager role: employee must have at least one site assigned",
    });
    expect(await runSyncItem(db.db, r.job(1), { lastAttempt: false })).toMatchObject({ kind: "done" });
    expect(await row(bad.externalEmployeeId)).toBeUndefined();
    expect(await row(good.externalEmployeeId)).toBeDefined();
    const status = await loadSyncStatus(db.db, t.organization.id, r.requestId);
    expect(status).toMatchObject({
      status: "completed",
      errors: [{ externalEmployeeId: bad.externalEmployeeId, message: "Cannot assign site_manager role: employee must have at least one site assigned" }],
    });
  });

  it("skips an item of another organization (the job's organization scopes every read)", async () => {
    const r = await request([employee()]);
    const other = await seedDemo(db.db);
    expect(await runSyncItem(db.db, { ...r.job(0), organizationId: other.organization.id }, { lastAttempt: false })).toEqual({
      kind: "skipped",
      successor: null,
      outboxIds: [],
    });
    expect((await loadSyncStatus(db.db, t.organization.id, r.requestId))!.status).toBe("processing");
  });
});

describe("dryRunSync", () => {
  it("reports what a real run would, in order, duplicates seeing their predecessor, and writes nothing", async () => {
    const a = employee({ email: `dry-${n}@example.test`, userAccount: { forcePasswordReset: false, sendWelcomeEmail: false } });
    const aAgain = { ...a, department: "Later" };
    const bad = employee({ roles: ["site_manager"] });
    const before = (await db.sql<{ n: number }[]>`select count(*)::int as n from employees where organization_id = ${t.organization.id}`)[0]!.n;
    const out = await dryRunSync(db.db, t.organization.id, "00000000-0000-4000-8000-000000000001", [
      { idx: 0, employee: a },
      { idx: 1, employee: aAgain },
      { idx: 2, employee: bad },
    ]);
    expect(out).toEqual([
      { idx: 0, result: { externalEmployeeId: a.externalEmployeeId, status: "CREATED", employeeId: null, userId: null, warnings: [] } },
      { idx: 1, result: { externalEmployeeId: a.externalEmployeeId, status: "UPDATED", employeeId: null, userId: null, warnings: [] } },
      { idx: 2, error: "Cannot assign site_manager role: employee must have at least one site assigned" },
    ]);
    expect((await db.sql<{ n: number }[]>`select count(*)::int as n from employees where organization_id = ${t.organization.id}`)[0]!.n).toBe(before);
    expect((await db.sql<{ n: number }[]>`select count(*)::int as n from users where email = ${a.email!}`)[0]!.n).toBe(0);
  });
});

describe("the employee context read", () => {
  it("finds roles and groups by the names and external ids given, and sites by id in any case; a malformed site id is just not found", async () => {
    const site = t.sites[0]!.id;
    const c = await read(
      employee({
        roles: ["inspector", "inspector", "no-such-role"],
        groups: [{ groupName: t.groups[1]!.name }, { externalGroupId: t.groups[0]!.externalId! }, { groupName: "No such group" }],
        sites: [{ id: site.toUpperCase() }, { id: site }, { id: "not-a-uuid" }],
      }),
    );
    expect(c.state).toBeNull();
    expect([...c.refs.rolesByName.keys()]).toEqual(["inspector"]);
    expect([...c.refs.groupsByName]).toEqual([[t.groups[1]!.name, t.groups[1]!.id]]);
    expect([...c.refs.groupsByExternalId]).toEqual([[t.groups[0]!.externalId!, t.groups[0]!.id]]);
    expect([...c.refs.sites]).toEqual([site]);
  });

  it("looks nothing up for an INACTIVE or TERMINATED record", async () => {
    for (const status of ["INACTIVE", "TERMINATED"] as const) {
      const c = await read(employee({ status, roles: ["inspector"], groups: [{ groupName: t.groups[0]!.name }], sites: [{ id: t.sites[0]!.id }] }));
      expect([c.refs.rolesByName.size, c.refs.groupsByName.size, c.refs.groupsByExternalId.size, c.refs.sites.size]).toEqual([0, 0, 0, 0]);
    }
  });

  it("reads the stored employee with its account and assignments, and checks the stored e-mail when the record has none", async () => {
    const k = `${n}-${Date.now()}`;
    const e = employee({
      email: `ctx-${k}@example.test`,
      userAccount: { username: `ctx-user-${k}`, forcePasswordReset: false, sendWelcomeEmail: false },
      roles: ["inspector"],
      groups: [{ groupName: t.groups[0]!.name, role: "lead" }],
      sites: [{ id: t.sites[0]!.id }],
    });
    const created = await inTx((tx) => syncEmployee(tx, ctx(), e));
    const c = await read({ externalEmployeeId: e.externalEmployeeId, status: "ACTIVE", updateMode: "replace" });
    expect(c.state).toMatchObject({ id: created.result.employeeId, userId: created.result.userId, fields: { email: e.email, status: "ACTIVE" } });
    expect(c.state!.user).toMatchObject({ id: created.result.userId, email: e.email, username: `ctx-user-${k}`, disabled: false });
    expect([...c.state!.assignments.roles.values()]).toEqual(["inspector"]);
    expect([...c.state!.assignments.groups]).toEqual([[t.groups[0]!.id, "lead"]]);
    expect([...c.state!.assignments.sites]).toEqual([[t.sites[0]!.id, null]]);
    // The stored e-mail is checked: its holder is the employee's own user.
    expect(c.holders).toEqual({
      otherEmployee: false,
      userByEmail: { id: created.result.userId, organizationId: t.organization.id, employeeId: created.result.employeeId, isAdmin: false },
      usernameTaken: false,
    });
    // A record that clears the e-mail checks none.
    expect((await read({ externalEmployeeId: e.externalEmployeeId, status: "ACTIVE", updateMode: "replace", email: null })).holders).toBeNull();
  });

  it("sees another employee with the e-mail, and a username taken by another user of the organization", async () => {
    const k = `${n}-${Date.now()}`;
    const a = employee({ email: `ctx-a-${k}@example.test`, userAccount: { username: `ctx-taken-${k}`, forcePasswordReset: false, sendWelcomeEmail: false } });
    await inTx((tx) => syncEmployee(tx, ctx(), a));
    const sameEmail = await read(employee({ email: a.email!.toUpperCase() }));
    expect(sameEmail.holders).toMatchObject({ otherEmployee: true, userByEmail: { organizationId: t.organization.id } });
    const sameUsername = await read(
      employee({ email: `ctx-b-${k}@example.test`, userAccount: { username: `CTX-TAKEN-${k}`, forcePasswordReset: false, sendWelcomeEmail: false } }),
    );
    expect(sameUsername.holders).toEqual({ otherEmployee: false, userByEmail: null, usernameTaken: true });
    // Without an account to manage the username is not checked.
    const noAccount = await read(employee({ email: `ctx-c-${k}@example.test` }));
    expect(noAccount.holders).toEqual({ otherEmployee: false, userByEmail: null, usernameTaken: false });
  });
});
