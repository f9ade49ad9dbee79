import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@insp/testing";
import { seedDemo } from "../src/index.ts";
import { withIdempotency, type IdempotencyRef, type IdempotentWork, type KeyFate } from "../src/idempotency.ts";

/**
 * withIdempotency against a real database, with a made-up endpoint whose outcomes say what the
 * key should do: what is recorded, replayed, kept pending and released, and rows recorded before
 * outcomes were (an HTTP status and body).
 */

type Outcome = { kind: "done"; n: number } | { kind: "later"; ticket: string } | { kind: "broke" };

let db: TestDatabase;
let organizationId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  organizationId = (await seedDemo(db.db)).organization.id;
});
afterAll(async () => {
  await db?.close();
});

const refOf = (): IdempotencyRef => ({ organizationId, scope: "test", key: randomUUID() });
const FATE: Record<Outcome["kind"], KeyFate> = { done: "record", later: "keep", broke: "release" };

/** An endpoint answering `next()` from run, noting {ticket} first; counts its runs and attaches. */
function endpoint(next: () => Outcome) {
  const calls = { runs: 0, attached: [] as unknown[] };
  const work: IdempotentWork<Outcome> = {
    run: async (_, note) => {
      calls.runs++;
      await note({ ticket: `t${calls.runs}` });
      return next();
    },
    attach: async (progress) => (calls.attached.push(progress), { kind: "later", ticket: "attached" }),
    fate: (o) => FATE[o.kind],
    revive: (recorded) => recorded as Outcome,
    fromResponse: (status, body) => ({ kind: "done", n: status * 1000 + (body as { n: number }).n }),
  };
  return { work, calls };
}

describe("withIdempotency", () => {
  it("records a final outcome and replays it to the same body; another body is a 422", async () => {
    const ref = refOf();
    const { work, calls } = endpoint(() => ({ kind: "done", n: 7 }));
    expect(await withIdempotency(db.db, ref, { a: 1, b: 2 }, work)).toEqual({ outcome: { kind: "done", n: 7 }, replayed: false });
    expect(await withIdempotency(db.db, ref, { b: 2, a: 1 }, work)).toEqual({ outcome: { kind: "done", n: 7 }, replayed: true });
    expect(calls.runs).toBe(1);
    await expect(withIdempotency(db.db, ref, { a: 2 }, work)).rejects.toMatchObject({ kind: "idempotency_mismatch" });
    const [row] = await db.sql`select response_status, outcome from idempotency_keys where organization_id = ${organizationId} and key = ${ref.key}`;
    expect(row).toEqual({ response_status: null, outcome: { kind: "done", n: 7 } });
  });

  it("keeps a key pending while the work goes on: a repeat attaches to the progress noted, then records what it finds", async () => {
    const ref = refOf();
    const first = endpoint(() => ({ kind: "later", ticket: "t1" }));
    expect((await withIdempotency(db.db, ref, {}, first.work)).outcome).toEqual({ kind: "later", ticket: "t1" });
    const repeat = endpoint(() => ({ kind: "done", n: 1 }));
    repeat.work.attach = async (progress) => (repeat.calls.attached.push(progress), { kind: "done", n: 2 });
    expect(await withIdempotency(db.db, ref, {}, repeat.work)).toEqual({ outcome: { kind: "done", n: 2 }, replayed: false });
    expect(repeat.calls).toEqual({ runs: 0, attached: [{ ticket: "t1" }] });
    expect(await withIdempotency(db.db, ref, {}, repeat.work)).toEqual({ outcome: { kind: "done", n: 2 }, replayed: true });
  });

  it("releases the key after an outcome that can be retried and after a throw: the same request runs again", async () => {
    const ref = refOf();
    const broke = endpoint(() => ({ kind: "broke" }));
    await withIdempotency(db.db, ref, {}, broke.work);
    const threw = endpoint(() => {
      throw new Error("boom");
    });
    await expect(withIdempotency(db.db, ref, {}, threw.work)).rejects.toThrow("boom");
    const ok = endpoint(() => ({ kind: "done", n: 3 }));
    expect(await withIdempotency(db.db, ref, {}, ok.work)).toEqual({ outcome: { kind: "done", n: 3 }, replayed: false });
    expect([broke.calls.runs, threw.calls.runs, ok.calls.runs]).toEqual([1, 1, 1]);
  });

  it("keepWhenNoted: a throw after progress committed with the work keeps the key, and a repeat attaches to that work instead of doing it again; a throw before keeps nothing", async () => {
    // The work's row and the key's note commit in one transaction, then the answer is lost (as
    // when a connection drops after a commit): a repeat must find the ticket, not make a second one.
    const ref = refOf();
    const tickets: string[] = [];
    const lost: IdempotentWork<Outcome> = {
      ...endpoint(() => ({ kind: "done", n: 0 })).work,
      keepWhenNoted: true,
      run: async (_, _note, noteIn) => {
        await db.db.transaction(async (tx) => {
          tickets.push("t1");
          await noteIn(tx, { ticket: "t1" });
        });
        throw new Error("connection lost after the commit");
      },
    };
    await expect(withIdempotency(db.db, ref, {}, lost)).rejects.toThrow("connection lost");
    const repeat = endpoint(() => ({ kind: "done", n: 9 }));
    repeat.work.attach = async (progress) => (repeat.calls.attached.push(progress), { kind: "done", n: 1 });
    expect(await withIdempotency(db.db, ref, {}, repeat.work)).toEqual({ outcome: { kind: "done", n: 1 }, replayed: false });
    expect(repeat.calls).toEqual({ runs: 0, attached: [{ ticket: "t1" }] });
    expect(tickets).toEqual(["t1"]);

    // Rolled back with its work, the note is not there: the key is given up and a repeat runs.
    const other = refOf();
    const rolledBack: IdempotentWork<Outcome> = {
      ...lost,
      run: async (_, _note, noteIn) => {
        await db.db
          .transaction(async (tx) => {
            await noteIn(tx, { ticket: "never" });
            throw new Error("rolled back");
          })
          .catch(() => {});
        throw new Error("failed before anything committed");
      },
    };
    await expect(withIdempotency(db.db, other, {}, rolledBack)).rejects.toThrow("before anything committed");
    const again = endpoint(() => ({ kind: "done", n: 4 }));
    expect(await withIdempotency(db.db, other, {}, again.work)).toEqual({ outcome: { kind: "done", n: 4 }, replayed: false });
    expect(again.calls).toEqual({ runs: 1, attached: [] });
  });

  it("claims the key in the transaction of `begin`: a throw there leaves no key behind", async () => {
    const ref = refOf();
    const { work } = endpoint(() => ({ kind: "done", n: 4 }));
    const failing: IdempotentWork<Outcome, string> = {
      ...work,
      begin: async () => {
        throw new Error("quota");
      },
      run: async () => ({ kind: "done", n: 0 }),
    };
    await expect(withIdempotency(db.db, ref, {}, failing)).rejects.toThrow("quota");
    const [left] = await db.sql`select count(*)::int as n from idempotency_keys where organization_id = ${organizationId} and key = ${ref.key}`;
    expect(left!.n).toBe(0);
    const begun: IdempotentWork<Outcome, string> = {
      ...work,
      begin: async (_tx, note) => (await note({ ticket: "b" }), "from begin"),
      run: async (started) => ({ kind: "later", ticket: started }),
    };
    expect((await withIdempotency(db.db, ref, {}, begun)).outcome).toEqual({ kind: "later", ticket: "from begin" });
    const [row] = await db.sql`select response_body from idempotency_keys where organization_id = ${organizationId} and key = ${ref.key}`;
    expect(row!.response_body).toEqual({ ticket: "b" });
  });

  it("replays a row recorded before outcomes were (an HTTP status and body) through fromResponse, also when an outcome is left beside it", async () => {
    const ref = refOf();
    const { work, calls } = endpoint(() => ({ kind: "done", n: 0 }));
    await withIdempotency(db.db, ref, { x: 1 }, work); // the row, with this body's hash
    await db.sql`update idempotency_keys set response_status = 201, response_body = '{"n": 5}' where organization_id = ${organizationId} and key = ${ref.key}`;
    expect(await withIdempotency(db.db, ref, { x: 1 }, work)).toEqual({ outcome: { kind: "done", n: 201_005 }, replayed: true });
    expect(calls.runs).toBe(1);
  });

  it("runs the work as it is without a key, and stores nothing", async () => {
    const { work, calls } = endpoint(() => ({ kind: "done", n: 6 }));
    const [before] = await db.sql`select count(*)::int as n from idempotency_keys`;
    expect(await withIdempotency(db.db, null, {}, work)).toEqual({ outcome: { kind: "done", n: 6 }, replayed: false });
    expect(await withIdempotency(db.db, null, {}, work)).toEqual({ outcome: { kind: "done", n: 6 }, replayed: false });
    const [after] = await db.sql`select count(*)::int as n from idempotency_keys`;
    expect([calls.runs, after!.n]).toEqual([2, before!.n]);
  });
});
