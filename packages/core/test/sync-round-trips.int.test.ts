import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "@insp/db";
import { createTestDatabase, roundTripCounter, type TestDatabase } from "@insp/testing";
import { chainKeys, createSyncRequest, loadSyncStatus, runSyncItem, seedDemo, type DemoSeed, type NewItem, type SyncEmployee } from "../src/index.ts";

/**
 * How often one employee's transaction waits for Postgres: runSyncItem, the function the
 * employee-sync job runs, over a connection whose socket counts round trips. Two per employee
 * whatever the outcome (BEGIN, the locks and the read; the write of everything and COMMIT),
 * each in one socket write, once the connection has prepared the statements (the first run of a statement on a
 * connection costs one more round trip: postgres.js asks Postgres to describe it first).
 */

let db: TestDatabase;
let counted: DbHandle;
let t: DemoSeed;
const counter = roundTripCounter();

beforeAll(async () => {
  db = await createTestDatabase();
  t = await seedDemo(db.db);
  // One connection, so every statement of every run crosses the counted socket.
  counted = createDb(db.url, { max: 1, applicationName: "round-trips", socket: counter.socket });
});
afterAll(async () => {
  await counted?.close();
  await db?.close();
});

let n = 0;
const tag = `rt${Date.now()}`;
/** A new employee as an HR system sends one: e-mail, account, 2 roles, a group by external id, a site. */
const employee = (extra: Partial<SyncEmployee> = {}): SyncEmployee => {
  const i = ++n;
  return {
    externalEmployeeId: `${tag}-${i}`,
    status: "ACTIVE",
    updateMode: "replace",
    firstName: "Round",
    lastName: `Trip ${i}`,
    email: `${tag}-${i}@example.test`,
    department: "Ops",
    roles: ["inspector", "FIELD_TECH"],
    groups: [{ externalGroupId: t.groups[0]!.externalId! }],
    sites: [{ id: t.sites[0]!.id }],
    userAccount: { forcePasswordReset: false, sendWelcomeEmail: false },
    ...extra,
  };
};

/** Records a request of these employees as the API does, and returns a job per item. */
async function request(employees: SyncEmployee[]) {
  const items: NewItem[] = employees.map((e, idx) => ({ idx, externalEmployeeId: e.externalEmployeeId, input: e }));
  chainKeys(employees).forEach((key, i) => (items[i]!.chainKey = key));
  const r = await createSyncRequest(db.db, { organizationId: t.organization.id, clientId: null, syncBatchId: null, dryRun: false, items });
  return {
    requestId: r.requestId,
    jobs: r.items.sort((a, b) => a.idx - b.idx).map((i) => ({ organizationId: t.organization.id, requestId: r.requestId, itemId: i.id })),
  };
}

/** Runs each job over the counted connection; the round trips of the last one. */
async function tripsOfLast(employees: SyncEmployee[]) {
  const r = await request(employees);
  const runs = [];
  for (const job of r.jobs) {
    counter.reset();
    runs.push(await runSyncItem(counted.db, job, { lastAttempt: false }));
  }
  return { trips: counter.trips, writes: counter.writes, runs, requestId: r.requestId };
}

describe("round trips of one employee's transaction", () => {
  it("the counter sees each statement awaited in postgres.js's begin() as a round trip of its own (five for three statements)", async () => {
    counter.reset();
    const three = () =>
      counted.sql.begin(async (tx) => {
        await tx`select ${1}::int as a`;
        await tx`select ${2}::int as b`;
        await tx`select ${3}::int as c`;
      });
    await three();
    expect(counter.trips).toBeGreaterThanOrEqual(8); // a first run also asks Postgres to describe each statement
    counter.reset();
    await three();
    expect(counter.trips).toBe(5); // BEGIN, a, b, c, COMMIT
    counter.reset();
    await Promise.all([counted.sql`select ${1}::int as a`, counted.sql`select ${2}::int as b`]);
    expect(counter.trips).toBe(1); // issued together: pipelined
  });

  it("a new employee with an account, roles, a group and a site: two", async () => {
    await tripsOfLast([employee()]); // the statements get prepared on the connection
    const { trips, writes, runs, requestId } = await tripsOfLast([employee()]);
    expect(runs[0]).toMatchObject({ kind: "done" });
    expect(trips).toBe(2);
    expect(writes).toBe(2); // the statements of a round trip leave in one socket write
    const status = await loadSyncStatus(db.db, t.organization.id, requestId);
    expect(status!.results).toEqual([expect.objectContaining({ status: "CREATED", warnings: [] })]);
  });

  it("an update that changes a field: two", async () => {
    const [a, b] = [employee(), employee()];
    await tripsOfLast([a, b]);
    await tripsOfLast([{ ...a, department: "Sales" }]);
    const { trips, writes, runs } = await tripsOfLast([{ ...b, department: "Sales" }]);
    expect(runs[0]).toMatchObject({ kind: "done" });
    expect([trips, writes]).toEqual([2, 2]);
    const [row] = await db.sql<
      { department: string }[]
    >`select department from employees where organization_id = ${t.organization.id} and external_employee_id = ${b.externalEmployeeId}`;
    expect(row!.department).toBe("Sales");
  });

  it("a record identical to the stored one (nothing written but the item's outcome): two", async () => {
    const [a, b] = [employee(), employee()];
    await tripsOfLast([a, b]);
    await tripsOfLast([a]);
    const { trips, writes, runs, requestId } = await tripsOfLast([b]);
    expect(runs[0]).toMatchObject({ kind: "done" });
    expect([trips, writes]).toEqual([2, 2]);
    expect((await loadSyncStatus(db.db, t.organization.id, requestId))!.results).toEqual([expect.objectContaining({ status: "UPDATED" })]);
  });

  it("a business-rule failure (its error recorded, nothing of the employee written): two", async () => {
    const bad = () => employee({ roles: ["site_manager"], sites: undefined });
    await tripsOfLast([bad()]);
    const e = bad();
    const { trips, writes, runs, requestId } = await tripsOfLast([e]);
    expect(runs[0]).toMatchObject({ kind: "rule-failed", message: "Cannot assign site_manager role: employee must have at least one site assigned" });
    expect([trips, writes]).toEqual([2, 2]);
    expect((await loadSyncStatus(db.db, t.organization.id, requestId))!.errors).toEqual([
      { externalEmployeeId: e.externalEmployeeId, message: "Cannot assign site_manager role: employee must have at least one site assigned" },
    ]);
    const stored = await db.sql`select 1 from employees where external_employee_id = ${e.externalEmployeeId}`;
    expect(stored).toHaveLength(0);
  });

  it("a repeated job of an item that is already done: two, and it still names the chain's next item", async () => {
    const a = employee();
    const r = await request([a, { ...a, department: "Later" }]);
    await runSyncItem(counted.db, r.jobs[0]!, { lastAttempt: false });
    await runSyncItem(counted.db, r.jobs[0]!, { lastAttempt: false });
    counter.reset();
    expect(await runSyncItem(counted.db, r.jobs[0]!, { lastAttempt: false })).toMatchObject({ kind: "skipped", successor: { id: r.jobs[1]!.itemId, idx: 1 } });
    expect(counter.trips).toBe(2);
  });
});
