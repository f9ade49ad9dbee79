import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { createTestDatabase, until, type TestDatabase } from "@insp/testing";
import { createDb, secondTrip, transactionInTwoTrips } from "../src/index.ts";

/**
 * transactionInTwoTrips against the real server: what commits, what rolls back, and what a
 * dropped connection does to a transaction on a reserved connection (patches/postgres+3.4.9.patch,
 * `reserve`: without it a closed reserved connection's later statements ran on its next
 * session, and release() put a dead connection back in the pool).
 */

let db: TestDatabase;
let admin: postgres.Sql;
const appName = () => `twotrips_${randomBytes(4).toString("hex")}`;
const terminate = (app: string) => admin`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${app} and pid <> pg_backend_pid()`.catch(() => []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rows = async (table: string) => (await admin.unsafe<{ v: string }[]>(`select v from ${table} order by v`)).map((r) => r.v);

beforeAll(async () => {
  db = await createTestDatabase();
  admin = postgres(db.url, { max: 1, onnotice: () => {} });
  await admin`create table tt_probe (v text primary key)`;
  await admin`create table tt_storm (tx int not null, part int not null)`;
  await admin`create table tt_idle (v text not null)`;
});
afterAll(async () => {
  await admin?.end({ timeout: 1 });
  await db?.close();
});

describe("transactionInTwoTrips", () => {
  it("commits what both trips wrote, and answers from the second trip's answers", async () => {
    const h = createDb(db.url, { max: 1 });
    const out = await transactionInTwoTrips(
      h.sql,
      (tx) => [tx`insert into tt_probe values ('commit-1')`, tx`select count(*)::int as n from tt_probe where v like 'commit-%'`],
      ([, [seen]], tx) => secondTrip([tx`insert into tt_probe values (${`commit-${seen!.n + 1}`}) returning v`], ([[inserted]]) => inserted!.v),
    );
    expect(out).toBe("commit-2");
    expect((await rows("tt_probe")).filter((v) => v.startsWith("commit-"))).toEqual(["commit-1", "commit-2"]);
    await h.close();
  });

  it("rolls everything back when the second step throws, when a statement of either trip fails, and the connection serves the next caller", async () => {
    const h = createDb(db.url, { max: 1 }); // one connection: the next transaction reuses it
    await expect(
      transactionInTwoTrips(
        h.sql,
        (tx) => [tx`insert into tt_probe values ('thrown')`],
        () => {
          throw new Error("decided against it");
        },
      ),
    ).rejects.toThrow("decided against it");
    await expect(
      transactionInTwoTrips(
        h.sql,
        (tx) => [tx`insert into tt_probe values ('second-trip-fails')`],
        (_, tx) => secondTrip([tx`insert into tt_probe values ('second-trip-fails')`], () => "never"),
      ),
    ).rejects.toMatchObject({ code: "23505" });
    await expect(
      transactionInTwoTrips(
        h.sql,
        (tx) => [tx`insert into tt_probe values ('first-trip-fails')`, tx`select 1 / 0`, tx`insert into tt_probe values ('after-the-failure')`],
        () => secondTrip([], () => "never"),
      ),
    ).rejects.toMatchObject({ code: "22012" });
    const left = await rows("tt_probe");
    for (const v of ["thrown", "second-trip-fails", "first-trip-fails", "after-the-failure"]) expect(left).not.toContain(v);
    // No transaction was left open on the connection: the next one commits.
    await transactionInTwoTrips(h.sql, (tx) => [tx`insert into tt_probe values ('next')`], () => secondTrip([], () => null));
    expect(await rows("tt_probe")).toContain("next");
    await h.close();
  });

  it("survives repeated termination of its backends: every transaction is all or nothing, and the pool goes on", async () => {
    const app = appName();
    const h = createDb(db.url, { max: 4, applicationName: app });
    const committed = new Set<number>();
    let failed = 0;
    let next = 0;
    const stopAt = Date.now() + 3_000;
    const inFlight: Promise<unknown>[] = [];
    const storm = setInterval(() => inFlight.push(terminate(app)), 120);
    try {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (Date.now() < stopAt) {
            const tx = next++;
            try {
              await transactionInTwoTrips(
                h.sql,
                (t) => [t`insert into tt_storm values (${tx}, 1)`, t`select pg_sleep(${Math.random() / 100})`],
                (_, t) => secondTrip([t`insert into tt_storm values (${tx}, 2), (${tx}, 3)`], () => null),
              );
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
    expect(failed).toBeGreaterThan(0);
    expect(committed.size).toBeGreaterThan(0);
    const landed = new Map((await admin<{ tx: number; n: number }[]>`select tx, count(*)::int as n from tt_storm group by tx`).map((r) => [r.tx, r.n]));
    for (const [tx, n] of landed) expect({ tx, n }).toEqual({ tx, n: 3 });
    for (const tx of committed) expect(landed.get(tx), `transaction ${tx} resolved`).toBe(3);
    const one = await until("a plain query answering", () => h.sql<{ one: number }[]>`select 1 as one`.then((r) => r[0]?.one, () => 0), (v) => v === 1);
    expect(one).toBe(1);
    await h.close();
  });

  it("a reserved connection that died never runs its later statements on the connection's next session, and releasing it leaves the pool sound", async () => {
    const sql = postgres(db.url, { max: 1, connection: { application_name: appName(), idle_in_transaction_session_timeout: 200 }, onnotice: () => {} });
    const tx = await sql.reserve();
    await Promise.all([tx`begin`, tx`insert into tt_idle values ('dead-1')`]);
    await sleep(600); // idle in transaction: the server ends the session after 200 ms
    // Other work takes the connection back and reconnects it.
    await sql.begin(async (t) => {
      await t`insert into tt_idle values ('other')`;
    });
    await expect(tx`insert into tt_idle values ('dead-2')`).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
    tx.release();
    const after = await Promise.all([sql`select 1 as one`, sql`select 2 as two`]);
    expect(after.map((r) => Object.values(r[0]!)[0])).toEqual([1, 2]);
    expect(await rows("tt_idle")).toEqual(["other"]);
    await sql.end({ timeout: 1 });
  });
});
