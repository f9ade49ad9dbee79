import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import type { RedisClient } from "../src/connection.ts";
import { JobWaiter } from "../src/waiter.ts";

/** A subscriber connection without Redis: `publish` delivers a signal as Redis would. */
function fakeSubscriber() {
  const sub = Object.assign(new EventEmitter(), { subscribe: async () => 1, disconnect: () => {} });
  return { connection: () => sub as unknown as RedisClient, publish: (id: string) => sub.emit("message", "test:signals", id) };
}

async function prepared() {
  const redis = fakeSubscriber();
  const waiter = new JobWaiter(redis.connection, "test");
  await waiter.prepare();
  return { waiter, publish: redis.publish };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A poll interval far longer than these tests: only a signal, a deadline or shutdown ends a wait in time.
const LONG_POLL = 60_000;

describe("JobWaiter.wait", () => {
  it("checks at once, and answers without a signal when the work is already done (a job that finished before its request waited)", async () => {
    const { waiter } = await prepared();
    let checks = 0;
    const done = await waiter.wait({ id: "import_a", timeoutMs: 10_000, pollMs: LONG_POLL, isDone: async () => ++checks > 0 });
    expect(done).toBe(true);
    expect(checks).toBe(1);
  });

  it("wakes on its countdown's signal, not another's, and checks again then", async () => {
    const { waiter, publish } = await prepared();
    let finished = false;
    let checks = 0;
    setTimeout(() => publish("import_other"), 20);
    setTimeout(() => {
      finished = true;
      publish("import_mine");
    }, 60);
    const started = Date.now();
    const done = await waiter.wait({ id: "import_mine", timeoutMs: 10_000, pollMs: LONG_POLL, isDone: async () => (checks++, finished) });
    expect(done).toBe(true);
    expect(checks).toBe(2);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("one signal wakes every request waiting on the same countdown (two requests for one report)", async () => {
    const { waiter, publish } = await prepared();
    let finished = false;
    setTimeout(() => {
      finished = true;
      publish("report_r");
    }, 30);
    const started = Date.now();
    const wait = () => waiter.wait({ id: "report_r", timeoutMs: 10_000, pollMs: LONG_POLL, isDone: async () => finished });
    expect(await Promise.all([wait(), wait()])).toEqual([true, true]);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a signal that comes while the check runs makes it check again at once", async () => {
    const { waiter, publish } = await prepared();
    let checks = 0;
    const started = Date.now();
    const done = await waiter.wait({
      id: "sync_s",
      timeoutMs: 10_000,
      pollMs: LONG_POLL,
      isDone: async () => {
        if (++checks > 1) return true;
        // The last job commits and signals while this check reads the state from before it.
        publish("sync_s");
        await sleep(20);
        return false;
      },
    });
    expect(done).toBe(true);
    expect(checks).toBe(2);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("without a signal, checks on the poll interval, and answers false at the deadline", async () => {
    const { waiter } = await prepared();
    let checks = 0;
    const started = Date.now();
    const done = await waiter.wait({ id: "import_lost", timeoutMs: 250, pollMs: 50, isDone: async () => (checks++, false) });
    expect(done).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(checks).toBeGreaterThanOrEqual(4);
  });

  it("stopWaiting ends a sleeping wait at once, and later waits after their first check", async () => {
    const { waiter } = await prepared();
    let checks = 0;
    const started = Date.now();
    const sleeping = waiter.wait({ id: "sync_t", timeoutMs: 10_000, pollMs: LONG_POLL, isDone: async () => (checks++, false) });
    setTimeout(() => waiter.stopWaiting(), 20);
    expect(await sleeping).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await waiter.wait({ id: "sync_u", timeoutMs: 10_000, pollMs: LONG_POLL, isDone: async () => (checks++, false) })).toBe(false);
    // The sleeping wait's first check and its last one on waking, then the later wait's one.
    expect(checks).toBe(3);
  });
});
