import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import { startFaultStack, type FaultStack } from "@insp/testing";
import {
  caller,
  employees,
  expectAllCreatedOnce,
  expectNoDuplicates,
  expectRecovered,
  finalSyncAnswer,
  processedItems,
  report,
  sleep,
  slowInserts,
  until,
} from "./faults.fixtures.ts";

/** Redis stopped and started again empty: every queued job is gone, Postgres still knows the work. */

let stack: FaultStack;
beforeAll(async () => {
  stack = await startFaultStack({ workers: 2 });
});
afterAll(() => stack?.stop());

describe("Redis stopped and started empty", () => {
  it("mid-batch: the lost jobs come back from Postgres and every employee is done exactly once", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    const sent = employees(t, 500, { welcome: true });
    const restore = await slowInserts(stack, "employees", 0.02);
    const accepted = await api.post({ employees: sent }, { headers: { prefer: "respond-async" } });
    expect(accepted.status).toBe(202);
    await until("the batch under way", async () => (await processedItems(stack, t.organization.id)) >= 100);
    await stack.redis.stop();
    await sleep(3_000);
    expect(stack.alive()).toBe(true);
    // While Redis is away a new batch cannot be queued: 503, nothing recorded.
    const during = await api.post({ employees: employees(t, 1) });
    expect(during.status).toBe(503);
    await stack.redis.start();
    const back = Date.now();
    const final = await finalSyncAnswer(api, accepted);
    report("Redis restarted empty mid-batch: batch completed after Redis came back", Date.now() - back);
    await restore();
    expectAllCreatedOnce(final, sent);
    await expectNoDuplicates(stack, t.organization.id, sent);
    const mailsStart = Date.now();
    await until("every welcome mail", async () => stack.smtp.messages.filter((m) => sent.some((e) => e.email === m.envelopeTo[0])).length >= 500, 120_000);
    report("Redis restarted empty mid-batch: every welcome mail delivered after the batch", Date.now() - mailsStart);
    await sleep(2_000);
    const mails = stack.smtp.messages.filter((m) => sent.some((e) => e.email === m.envelopeTo[0]));
    expect(mails.length).toBe(500);
    await expectRecovered(stack, "Redis restarted empty");
  });

  it("with 5,000 employees pending and no worker running: all of them are queued again within seconds of a worker seeing the empty Redis", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    await Promise.all([stack.workers[0]!.stop(), stack.workers[1]!.stop()]);
    const batches = Array.from({ length: 10 }, () => employees(t, 500));
    for (const batch of batches) expect((await api.post({ employees: batch }, { headers: { prefer: "respond-async" } })).status).toBe(202);
    const queue = () => {
      const connection = new Redis(stack.redis.url, { maxRetriesPerRequest: null });
      return { q: new Queue("employee-sync", { connection, prefix: stack.env.QUEUE_PREFIX }), connection };
    };
    let { q, connection } = queue();
    expect(await q.getJobCountByTypes("waiting", "prioritized")).toBe(5_000);
    await q.close();
    connection.disconnect();
    await stack.redis.stop();
    await stack.redis.start();
    ({ q, connection } = queue());
    expect(await q.getJobCountByTypes("waiting", "prioritized")).toBe(0);
    const started = Date.now();
    await stack.startWorker(0);
    // A completed employee job is removed at once: queued again means done (Postgres, read first) or
    // waiting or active (Redis, read after, so an item that finishes in between is not counted twice).
    const requeued = async () => {
      const done = await processedItems(stack, t.organization.id);
      return done + (await q.getJobCountByTypes("waiting", "prioritized", "active"));
    };
    await until("5,000 jobs queued again", async () => (await requeued()) >= 5_000, 120_000, 100);
    report("5,000 pending employees back in the queue after a worker started on the empty Redis", Date.now() - started);
    await stack.startWorker(1);
    await until("every batch done", async () => (await processedItems(stack, t.organization.id)) === 5_000, 180_000, 500);
    report("5,000 pending employees all done after the first worker started", Date.now() - started);
    await q.close();
    connection.disconnect();
    await expectNoDuplicates(stack, t.organization.id, batches.flat());
    await expectRecovered(stack, "5,000 pending after an empty Redis");
  });
});
