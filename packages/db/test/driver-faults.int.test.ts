import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { sql as dsql } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { createDb } from "../src/index.ts";

/**
 * Dropped connections under a transaction, against the real server, with the
 * driver as the service uses it. postgres.js 3.4.9 as published crashes the
 * process in all three cases (an uncatchable TypeError from a setImmediate write
 * on a null socket), hangs queued statements forever, and lets a dead
 * transaction's later statements run on the connection's next session. The
 * patch in patches/postgres+3.4.9.patch fixes all three; each test below fails
 * without it (the first and second by crashing the test process).
 */

let db: TestDatabase;
let killer: postgres.Sql;

const appName = () => `drvfault_${randomBytes(4).toString("hex")}`;
const terminate = (app: string) => killer`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${app} and pid <> pg_backend_pid()`.catch(() => []);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  db = await createTestDatabase();
  killer = postgres(db.url, { max: 1, onnotice: () => {} });
  await killer`create table tx_probe (tx int not null, part int not null)`;
  await killer`create table idle_probe (v text not null)`;
});
afterAll(async () => {
  await killer?.end({ timeout: 1 });
  await db?.close();
});

describe("postgres.js under dropped connections (patched)", () => {
  it("survives repeated termination of its backends mid-transaction: every transaction is all or nothing, and the pool goes on", async () => {
    const app = appName();
    const handle = createDb(db.url, { max: 4, applicationName: app });
    const committed = new Set<number>();
    let failed = 0;
    let next = 0;
    const stopAt = Date.now() + 3_000;
    const storm = setInterval(() => void terminate(app), 120);
    try {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (Date.now() < stopAt) {
            const tx = next++;
            try {
              // Two statements with a pause between them, as a sync item has (lock and read, then writes).
              await handle.db.transaction(async (t) => {
                await t.execute(dsql`insert into tx_probe values (${tx}, 1)`);
                await sleep(Math.random() * 10);
                await t.execute(dsql`insert into tx_probe values (${tx}, 2), (${tx}, 3)`);
              });
              committed.add(tx);
            } catch {
              failed++;
            }
          }
        }),
      );
    } finally {
      clearInterval(storm);
    }
    // Faults really happened, and work still got through.
    expect(failed).toBeGreaterThan(0);
    expect(committed.size).toBeGreaterThan(0);
    // Atomicity: a transaction's rows are all there or none are; no statement of a dead
    // transaction ran on its own (which would leave one or two rows). Every transaction that
    // resolved is there. One that rejected may be there too: its COMMIT reached the server but
    // the answer did not come back (outcome unknown to any client; the service's retries find
    // such an item already done and skip it).
    const rows = await killer<{ tx: number; n: number }[]>`select tx, count(*)::int as n from tx_probe group by tx`;
    const landed = new Map(rows.map((r) => [r.tx, r.n]));
    for (const [tx, n] of landed) expect({ tx, n }).toEqual({ tx, n: 3 });
    for (const tx of committed) expect(landed.get(tx), `transaction ${tx} resolved`).toBe(3);
    // The pool recovered: a plain query answers.
    const rows2 = await handle.sql<{ one: number }[]>`select 1 as one`;
    expect(rows2[0]?.one).toBe(1);
    await handle.close();
  });

  it("settles statements queued inside a transaction when its connection drops, instead of leaving them pending forever", async () => {
    const app = appName();
    const sql = postgres(db.url, { max: 1, connection: { application_name: app }, onnotice: () => {} });
    const settled: string[] = [];
    const tx = sql.begin(async (t) => {
      // A first statement that takes a while; the others queue behind it on the transaction.
      const queued = [t`select pg_sleep(2), ${1}::int as a`, ...Array.from({ length: 5 }, (_, i) => t`select ${i}::int + ${i}::int as b`)];
      for (const q of queued) q.then(() => settled.push("ok"), () => settled.push("rejected"));
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
    const deadOutcome = dead.then(() => "committed", (e: { code?: string }) => e.code);
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
});
