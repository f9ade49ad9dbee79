import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RedisClient } from "../src/index.ts";
import { JobWaiter, Queues, Worker, createRedis, startCountdown, tickCountdown } from "../src/index.ts";

let redis: RedisClient;
let queues: Queues;
let waiter: JobWaiter;
let worker: Worker;
const prefix = `waiter-test-${randomBytes(4).toString("hex")}`;
/** Jobs the worker has finished (each then ticks the countdown named after it), and jobs it holds until released. */
const finished = new Set<string>();
const held = new Map<string, () => void>();

beforeAll(async () => {
  redis = createRedis({ REDIS_URL: inject("redisUrl") }, "worker");
  queues = new Queues(redis, prefix);
  waiter = new JobWaiter(() => createRedis({ REDIS_URL: inject("redisUrl") }, "worker"), prefix);
  worker = new Worker(
    "mail",
    async (job) => {
      if (job.id!.startsWith("hold")) await new Promise<void>((resolve) => held.set(job.id!, resolve));
      finished.add(job.id!);
      await tickCountdown(queues, `job_${job.id!}`);
    },
    { connection: createRedis({ REDIS_URL: inject("redisUrl") }, "worker"), prefix },
  );
  await worker.waitUntilReady();
});
afterAll(async () => {
  await worker.close();
  await waiter.close();
  await queues.queue("mail").obliterate({ force: true });
  await queues.close();
  redis.disconnect();
});

const data = () => ({ organizationId: randomUUID(), outboxId: randomUUID() });
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("JobWaiter", () => {
  it("a job with a countdown of 1 (an import, a report) wakes its wait when its worker ticks it", async () => {
    await waiter.prepare();
    const job = `hold-${randomBytes(3).toString("hex")}`;
    await startCountdown(queues, `job_${job}`, 1);
    await queues.enqueue("mail", data(), { jobId: job });
    await until(() => held.has(job));

    const started = Date.now();
    setTimeout(() => held.get(job)?.(), 100);
    // A poll interval far longer than the test: only the worker's tick can end the wait in time.
    const done = await waiter.wait({ id: `job_${job}`, timeoutMs: 20_000, pollMs: 10_000, isDone: async () => finished.has(job) });
    expect(done).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await redis.exists(`${prefix}:countdown:job_${job}`)).toBe(0);
  });

  it("wakes the wait for a countdown when its last tick lands, once; ticks of a countdown nobody started do nothing", async () => {
    await waiter.prepare();
    const id = `req_${randomBytes(4).toString("hex")}`;
    await startCountdown(queues, id, 3);
    let ticks = 0;
    const started = Date.now();
    setTimeout(
      () =>
        void (async () => {
          for (let i = 0; i < 3; i++) {
            ticks++;
            await tickCountdown(queues, id);
          }
        })(),
      100,
    );
    // A poll interval far longer than the test: only the signal of the third tick can end the wait in time.
    const done = await waiter.wait({ id, timeoutMs: 20_000, pollMs: 10_000, isDone: async () => ticks === 3 });
    expect(done).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
    // The countdown is gone: a late duplicate tick neither goes negative nor signals again.
    expect(await tickCountdown(queues, id)).toBe(-1);
    expect(await redis.exists(`${prefix}:countdown:${id}`)).toBe(0);
  });

  it("a countdown that ends while the wait checks Postgres wakes it at once, not at the next poll", async () => {
    await waiter.prepare();
    const id = `req_${randomBytes(4).toString("hex")}`;
    await startCountdown(queues, id, 1);
    let checks = 0;
    const started = Date.now();
    const done = await waiter.wait({
      id,
      timeoutMs: 20_000,
      pollMs: 10_000,
      isDone: async () => {
        if (++checks > 1) return true;
        // The last item commits (and its tick signals) while the first check reads the old state.
        await tickCountdown(queues, id);
        await new Promise((r) => setTimeout(r, 100));
        return false;
      },
    });
    expect(done).toBe(true);
    expect(checks).toBe(2);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
