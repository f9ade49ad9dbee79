import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { createDb, secondTrip, transactionInTwoTrips } from "../src/index.ts";

/**
 * transactionInTwoTrips against the real server: what commits and what rolls back. What a
 * dropped connection does to it: driver-faults.int.test.ts.
 */

let db: TestDatabase;
let admin: postgres.Sql;
const rows = async (table: string) => (await admin.unsafe<{ v: string }[]>(`select v from ${table} order by v`)).map((r) => r.v);

beforeAll(async () => {
  db = await createTestDatabase();
  admin = postgres(db.url, { max: 1, onnotice: () => {} });
  await admin`create table tt_probe (v text primary key)`;
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
    await transactionInTwoTrips(
      h.sql,
      (tx) => [tx`insert into tt_probe values ('next')`],
      () => secondTrip([], () => null),
    );
    expect(await rows("tt_probe")).toContain("next");
    await h.close();
  });
});
