import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { sql as dsql } from "drizzle-orm";
import { createTestDatabase, until, withDb, type TestDatabase } from "@insp/testing";
import { createDb, secondTrip, transactionInTwoTrips } from "../src/index.ts";

/**
 * Dropped connections under a transaction, against the real server, with the
 * driver as the service uses it. postgres.js 3.4.9 as published crashes the
 * process in all three cases (an uncatchable TypeError from a setImmediate write
 * on a null socket), hangs queued statements forever, and lets a dead
 * transaction's later statements run on the connection's next session. The
 * patch in patches/postgres+3.4.9.patch fixes all three, and a fourth: a connection
 * lost during the driver's own first query (the array types) left a rejected promise
 * nobody listened to. Each test below fails without it (the first and second by
 * crashing the test process). The same holds for a connection reserved for the employee sync's
 * two-round-trip transactions (`reserve`): the patch rejects what a dead one still sends, and a
 * reserve() waiting while a connection closed no longer hangs.
 */

let db: TestDatabase;
let killer: postgres.Sql;

const appName = () => `drvfault_${randomBytes(4).toString("hex")}`;
const terminate = (app: string) =>
  killer`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${app} and pid <> pg_backend_pid()`.catch(() => []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let next = 0; // transaction numbers, unique across the storms

beforeAll(async () => {
  db = await createTestDatabase();
  killer = postgres(db.url, { max: 1, onnotice: () => {} });
  await killer`create table tx_probe (tx int not null, part int not null)`;
  await killer`create table idle_probe (v text not null)`;
  await killer`create table reserved_probe (v text not null)`;
});
afterAll(async () => {
  await killer?.end({ timeout: 1 });
  await db?.close();
});

describe("postgres.js under dropped connections (patched)", () => {
  // Two statements with a pause between them, as a sync item has (lock and read, then writes):
  // through postgres.js's begin(), and in the two round trips of the employee sync.
  const styles: [string, (h: ReturnType<typeof createDb>, tx: number) => Promise<unknown>][] = [
    [
      "begin()",
      (h, tx) =>
        h.db.transaction(async (t) => {
          await t.execute(dsql`insert into tx_probe values (${tx}, 1)`);
          await sleep(Math.random() * 10);
          await t.execute(dsql`insert into tx_probe values (${tx}, 2), (${tx}, 3)`);
        }),
    ],
    [
      "transactionInTwoTrips",
      (h, tx) =>
        transactionInTwoTrips(
          h.sql,
          (t) => [t`insert into tx_probe values (${tx}, 1)`, t`select pg_sleep(${Math.random() / 100})`],
          (_, t) => secondTrip([t`insert into tx_probe values (${tx}, 2), (${tx}, 3)`], () => null),
        ),
    ],
  ];
  it.each(styles)(
    "survives repeated termination of its backends mid-transaction (%s): every transaction is all or nothing, and the pool goes on",
    async (_style, transaction) => {
      const app = appName();
      const handle = createDb(db.url, { max: 4, applicationName: app });
      const committed = new Set<number>();
      const tried = new Set<number>();
      let failed = 0;
      const stopAt = Date.now() + 3_000;
      const inFlight: Promise<unknown>[] = [];
      const storm = setInterval(() => inFlight.push(terminate(app)), 120);
      try {
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (Date.now() < stopAt) {
              const tx = next++;
              tried.add(tx);
              try {
                await transaction(handle, tx);
                committed.add(tx);
              } catch {
                failed++;
              }
            }
          }),
        );
      } finally {
        clearInterval(storm);
        await Promise.all(inFlight);
      }
      // Faults really happened, and work still got through.
      expect(failed).toBeGreaterThan(0);
      expect(committed.size).toBeGreaterThan(0);
      // Atomicity: a transaction's rows are all there or none are; no statement of a dead
      // transaction ran on its own (which would leave one or two rows). Every transaction that
      // resolved is there. One that rejected may be there too: its COMMIT reached the server but
      // the answer did not come back (outcome unknown to any client; the service's retries find
      // such an item already done and skip it).
      const rows = await killer<{ tx: number; n: number }[]>`select tx, count(*)::int as n from tx_probe where tx = any(${[...tried]}::int[]) group by tx`;
      const landed = new Map(rows.map((r) => [r.tx, r.n]));
      for (const [tx, n] of landed) expect({ tx, n }).toEqual({ tx, n: 3 });
      for (const tx of committed) expect(landed.get(tx), `transaction ${tx} resolved`).toBe(3);
      // The pool recovers: once the last termination is done, a plain query answers. The first one
      // may still meet a connection killed a moment ago whose close the driver has not read yet:
      // it rejects with CONNECTION_CLOSED (as the service's retries expect), and the next one
      // gets a new connection.
      let refused = 0;
      const one = await until(
        "a plain query answering",
        () =>
          handle.sql<{ one: number }[]>`select 1 as one`.then(
            (r) => r[0]?.one,
            () => (refused++, 0),
          ),
        (v) => v === 1,
      );
      expect(one).toBe(1);
      expect(refused).toBeLessThanOrEqual(4); // at most once per pooled connection
      await handle.close();
    },
  );

  it("settles statements queued inside a transaction when its connection drops, instead of leaving them pending forever", async () => {
    const app = appName();
    const sql = postgres(db.url, { max: 1, connection: { application_name: app }, onnotice: () => {} });
    const settled: string[] = [];
    const tx = sql.begin(async (t) => {
      // A first statement that takes a while; the others queue behind it on the transaction.
      const queued = [t`select pg_sleep(2), ${1}::int as a`, ...Array.from({ length: 5 }, (_, i) => t`select ${i}::int + ${i}::int as b`)];
      for (const q of queued)
        q.then(
          () => settled.push("ok"),
          () => settled.push("rejected"),
        );
      setTimeout(() => void terminate(app), 300);
      await Promise.all(queued);
    });
    await expect(tx).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    await sleep(200);
    expect(settled).toEqual(Array(6).fill("rejected"));
    // The connection is usable again for the next caller.
    const rows = await sql<{ one: number }[]>`select 1 as one`;
    expect(rows[0]?.one).toBe(1);
    await sql.end({ timeout: 1 });
  });

  it("never runs a dead transaction's later statements on the connection's next session (idle_in_transaction_session_timeout)", async () => {
    const sql = postgres(db.url, { max: 1, connection: { application_name: appName(), idle_in_transaction_session_timeout: 200 }, onnotice: () => {} });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const dead = sql.begin(async (t) => {
      await t`insert into idle_probe values ('dead-1')`;
      await gate; // idle in transaction: the server ends the session after 200 ms
      await t`insert into idle_probe values ('dead-2')`;
    });
    const deadOutcome = dead.then(
      () => "committed",
      (e: { code?: string }) => e.code,
    );
    await sleep(600);
    // Other work reuses the (reconnected) connection while the dead callback resumes.
    const other = sql.begin(async (t) => {
      await t`insert into idle_probe values ('other')`;
      release();
      await sleep(20);
    });
    await other;
    expect(await deadOutcome).toBe("CONNECTION_CLOSED");
    await sleep(200);
    const rows = await killer<{ v: string }[]>`select v from idle_probe order by v`;
    expect(rows.map((r) => r.v)).toEqual(["other"]);
    await sql.end({ timeout: 1 });
  });

  it("a reserved connection that died never runs its later statements on the connection's next session, and releasing it leaves the pool sound", async () => {
    const sql = postgres(db.url, { max: 1, connection: { application_name: appName(), idle_in_transaction_session_timeout: 200 }, onnotice: () => {} });
    const tx = await sql.reserve();
    await Promise.all([tx`begin`, tx`insert into reserved_probe values ('dead-1')`]);
    await sleep(600); // idle in transaction: the server ends the session after 200 ms
    // Other work takes the connection back and reconnects it.
    await sql.begin(async (t) => {
      await t`insert into reserved_probe values ('other')`;
    });
    await expect(tx`insert into reserved_probe values ('dead-2')`).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    tx.release();
    const after = await Promise.all([sql`select 1 as one`, sql`select 2 as two`]);
    expect(after.map((r) => Object.values(r[0]!)[0])).toEqual([1, 2]);
    const left = await killer<{ v: string }[]>`select v from reserved_probe order by v`;
    expect(left.map((r) => r.v)).toEqual(["other"]);
    await sql.end({ timeout: 1 });
  });
  it("a connection lost during the driver's own array-types query rejects the caller's query, with no unhandled rejection", async () => {
    const app = appName();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    // Hold pg_type of this test's database so the types query of a new connection waits.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const locker = postgres(db.url, { max: 1, onnotice: () => {} });
    // Watched and terminated from another database: in this one, even planning a query may wait on the lock.
    const watcher = postgres(withDb(db.url, "postgres"), { max: 1, onnotice: () => {} });
    const holder = locker.begin(async (t) => {
      await t`lock table pg_catalog.pg_type in access exclusive mode`;
      locked();
      await gate;
    });
    await isLocked;
    const sql = postgres(db.url, { max: 1, connection: { application_name: app }, onnotice: () => {} });
    try {
      const first = sql`select 1 as one`.then(
        () => "answered",
        (e: { code?: string }) => e.code ?? "rejected",
      );
      for (let i = 0; i < 100; i++) {
        const [row] = await watcher<
          { n: number }[]
        >`select count(*)::int as n from pg_stat_activity where application_name = ${app} and wait_event_type = 'Lock'`;
        if (row!.n > 0) break;
        await sleep(50);
      }
      await watcher`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${app}`;
      release();
      await holder;
      expect(await first).toBe("57P01");
      await sleep(300);
      expect(unhandled).toEqual([]);
      // And the pool goes on.
      const rows = await sql<{ one: number }[]>`select 1 as one`;
      expect(rows[0]?.one).toBe(1);
    } finally {
      release();
      process.off("unhandledRejection", onUnhandled);
      await sql.end({ timeout: 1 });
      await locker.end({ timeout: 1 });
      await watcher.end({ timeout: 1 });
    }
  });
});
