import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { startFaultStack, type FaultStack } from "@insp/testing";
import { SYNC_PATH } from "../fixtures/employee-sync.fixtures.ts";
import { dataUrl, importBody, png, publishedAudit } from "../fixtures/inspections.fixtures.ts";
import {
  caller,
  employees,
  expectAllCreatedOnce,
  expectNoDuplicates,
  expectRecovered,
  processedItems,
  report,
  sleep,
  slowInserts,
  until,
} from "./faults.fixtures.ts";

/** kill -9 of the API while it holds a request; the client sends the same request again with the same Idempotency-Key. */

let stack: FaultStack;
beforeAll(async () => {
  // Items whose jobs were never enqueued come back after 5 s (instead of 30) to keep the test short.
  stack = await startFaultStack({ workers: 2, env: { SYNC_REQUEUE_AFTER_SECONDS: "5" } });
});
afterAll(() => stack?.stop());

describe("the API killed mid-request, then the same body resent with the same Idempotency-Key", () => {
  it("sync: the batch goes on without the API, and the resent request gets the one result", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    const sent = employees(t, 500);
    const headers = { "idempotency-key": `fault-${randomUUID()}` };
    const restore = await slowInserts(stack, "employees", 0.02);
    // The API dies with this request open: the client sees the connection close.
    const first = api.post({ employees: sent }, { headers }).catch((e: Error) => ({ status: e.name }));
    await until("a fifth of the batch processed", async () => (await processedItems(stack, t.organization.id)) >= 100);
    await stack.killApi();
    expect((await first).status).toBe("TypeError");
    await stack.startApi();
    const resentAt = Date.now();
    const again = await (await caller(stack, t)).post({ employees: sent }, { headers });
    report("API killed mid-batch: the resent request answered after", Date.now() - resentAt);
    await restore();
    expect(again.status).toBe(200);
    expectAllCreatedOnce(again.body, sent);
    // A third time: the recorded answer, replayed.
    const replay = await (await caller(stack, t)).post({ employees: sent }, { headers });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(again.body);
    await expectNoDuplicates(stack, t.organization.id, sent);
    await expectRecovered(stack, "API killed mid-batch");
  });

  it("import: the import finishes in the worker, and the resent request gets the same inspection", async () => {
    const t = await stack.tenant();
    const tpl = await publishedAudit(stack, t);
    const body = importBody(t, tpl, {
      answers: [{ questionId: tpl.q.brakes!.id, responseOptionId: tpl.opt("brakes", "yes"), media: [dataUrl("image/png", png(64, 64, 7))] }],
    });
    const headers = { "idempotency-key": `fault-${randomUUID()}` };
    const auth = { bearer: t.apiKey };
    const restore = await slowInserts(stack, "inspections", 3);
    const first = stack.http.post("/api/inspections", body, { auth, headers }).catch(() => null);
    await until("the import running in a worker", async () => {
      const [row] = await stack.db.sql<
        { n: number }[]
      >`select count(*)::int as n from pg_stat_activity where datname = 'inspection_service' and application_name = 'inspection-worker' and wait_event = 'PgSleep'`;
      return row!.n >= 1;
    });
    await stack.killApi();
    expect(await first).toBeNull();
    await stack.startApi();
    const again = await stack.http.post("/api/inspections", body, { auth, headers });
    await restore();
    expect(again.status).toBe(201);
    const [row] = await stack.db.sql<
      { n: number; id: string }[]
    >`select count(*)::int as n, min(id::text) as id from inspections where organization_id = ${t.organization.id}`;
    expect(row).toEqual({ n: 1, id: again.body.id });
    await expectRecovered(stack, "API killed mid-import");
  });
});

describe("the API killed between recording a sync request and enqueueing its jobs", () => {
  it("the items are picked up from Postgres by the workers' sweep, and the resent request attaches to them", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    const sent = employees(t, 50);
    const headers = { "idempotency-key": `fault-${randomUUID()}` };
    const redis = new Redis(stack.redis.url);
    // Hold the API inside its recording transaction (a table lock), pause Redis writes, then let
    // the transaction commit: the API is now stuck in its enqueue, and is killed there.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = stack.db.sql.begin(async (tx) => {
      await tx`lock table sync_requests in share row exclusive mode`;
      locked();
      await gate;
    });
    await isLocked;
    const first = api.post({ employees: sent }, { headers }).catch(() => null);
    await until("the API waiting on the lock", async () => {
      const [row] = await stack.db.sql<
        { n: number }[]
      >`select count(*)::int as n from pg_stat_activity where application_name = 'inspection-api' and wait_event_type = 'Lock'`;
      return row!.n >= 1;
    });
    await redis.call("client", "pause", "60000", "write");
    release();
    await holder;
    await until("the request recorded", async () => {
      const [row] = await stack.db.sql<{ n: number }[]>`select count(*)::int as n from sync_requests where organization_id = ${t.organization.id}`;
      return row!.n === 1;
    });
    await sleep(300);
    await stack.killApi();
    expect(await first).toBeNull();
    await redis.call("client", "unpause");
    const [items] = await stack.db.sql<
      { pending: number }[]
    >`select count(*)::int as pending from sync_request_items where organization_id = ${t.organization.id} and status = 'pending'`;
    expect(items!.pending).toBe(50);
    redis.disconnect();

    const killedAt = Date.now();
    await stack.startApi();
    const again = await (await caller(stack, t)).post({ employees: sent }, { headers });
    report("API killed before enqueueing: the resent request answered after the kill", Date.now() - killedAt);
    expect(again.status).toBe(200);
    expectAllCreatedOnce(again.body, sent);
    const [recorded] = await stack.db.sql<
      { requests: number }[]
    >`select count(*)::int as requests from sync_requests where organization_id = ${t.organization.id}`;
    expect(recorded!.requests).toBe(1);
    await expectNoDuplicates(stack, t.organization.id, sent);
    expect((await api.get(`${SYNC_PATH.replace("employees", "requests")}/${again.body.requestId}`)).body.status).toBe("completed");
    await expectRecovered(stack, "API killed before enqueueing");
  });
});
