import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RedisClient } from "../src/index.ts";
import { MAX_PRIORITY, Queues, Worker, createRedis, fairKey, takeTurns } from "../src/index.ts";

let redis: RedisClient;
let queues: Queues;
const prefix = `fair-test-${randomBytes(4).toString("hex")}`;

beforeAll(() => {
  redis = createRedis({ REDIS_URL: inject("redisUrl") }, "worker");
  queues = new Queues(redis, prefix);
});
afterAll(async () => {
  await queues.queue("mail").obliterate({ force: true });
  await queues.close();
  redis.disconnect();
});

const mails = (organizationId: string, n: number) => Array.from({ length: n }, () => ({ data: { organizationId, outboxId: randomUUID() } }));

/** Runs every waiting mail job through one worker, one at a time, and answers their organizations in the order they ran. */
async function drain(expected: number): Promise<string[]> {
  const order: string[] = [];
  let done: () => void;
  const all = new Promise<void>((r) => (done = r));
  const worker = new Worker(
    "mail",
    async (job) => {
      order.push((job.data as { organizationId: string }).organizationId);
      if (order.length === expected) done();
    },
    { connection: createRedis({ REDIS_URL: inject("redisUrl") }, "worker"), prefix, concurrency: 1 },
  );
  await all;
  await worker.close();
  return order;
}

describe("fair turns across organizations", { timeout: 120_000 }, () => {
  it("serves a second organization's few jobs between the first's backlog, each organization in its own order", async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const aJobs = mails(a, 2_000);
    for (let i = 0; i < aJobs.length; i += 500) await queues.enqueueBulk("mail", aJobs.slice(i, i + 500));
    const bJobs = mails(b, 10);
    await queues.enqueueBulk("mail", bJobs);
    // One job at a time for a third organization, after both.
    const cJobs = mails(c, 3);
    for (const job of cJobs) await queues.enqueue("mail", job.data);

    const ran: string[] = [];
    const worker = new Worker("mail", async (job) => void ran.push((job.data as { outboxId: string }).outboxId), {
      connection: createRedis({ REDIS_URL: inject("redisUrl") }, "worker"),
      prefix,
      concurrency: 1,
    });
    for (let i = 0; i < 2_400 && ran.length < 2_013; i++) await new Promise((r) => setTimeout(r, 25));
    await worker.close();
    expect(ran).toHaveLength(2_013);

    const position = (id: string) => ran.indexOf(id);
    // First in, first out would run B's jobs after all 2,000 of A's, and C's after those.
    for (const jobs of [bJobs, cJobs]) expect(Math.max(...jobs.map((j) => position(j.data.outboxId)))).toBeLessThan(25);
    // Each organization's jobs ran in the order they were added.
    const ownOrder = (jobs: { data: { outboxId: string } }[]) => jobs.map((j) => position(j.data.outboxId));
    for (const jobs of [aJobs, bJobs, cJobs]) expect(ownOrder(jobs)).toEqual([...ownOrder(jobs)].sort((x, y) => x - y));
  });

  it("alternates two organizations with backlogs added one after the other", async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await queues.enqueueBulk("mail", mails(a, 300));
    await queues.enqueueBulk("mail", mails(b, 300));
    const order = await drain(600);
    // In every stretch of 100 jobs, each organization had its share.
    for (let i = 0; i < 600; i += 100) {
      const share = order.slice(i, i + 100).filter((o) => o === a).length;
      expect(share).toBeGreaterThanOrEqual(45);
      expect(share).toBeLessThanOrEqual(55);
    }
  });

  it("counts from 1 again once nothing waits, and never past BullMQ's highest priority", async () => {
    const queue = queues.queue("mail");
    const org = randomUUID();
    expect(await queue.getWaitingCount()).toBe(0);
    expect(await takeTurns(redis, queue, org, 3)).toEqual([1, 2, 3]);
    // Nothing was added, so nothing waits and nothing is delayed: counted from 1 again, and the hash holds only this call.
    expect(await takeTurns(redis, queue, org, 2)).toEqual([1, 2]);
    expect((await redis.hkeys(fairKey(queue))).sort()).toEqual(["#top", org].sort());

    await queues.enqueue("mail", mails(randomUUID(), 1)[0]!.data);
    await redis.hset(fairKey(queue), org, MAX_PRIORITY - 2);
    // With a job waiting, the generation goes on: the org's last turn is kept, and the numbers stop at the highest.
    const turns = await takeTurns(redis, queue, org, 4);
    expect(turns).toEqual([MAX_PRIORITY - 1, MAX_PRIORITY, MAX_PRIORITY, MAX_PRIORITY]);
    await drain(1);
  });

  it("keeps counting while a delayed job still carries a turn: a newcomer starts level with the highest turn, not ahead of the delayed job", async () => {
    const queue = queues.queue("mail");
    const [a, b] = [randomUUID(), randomUUID()];
    await queues.enqueueBulk("mail", mails(a, 5));
    // A retry due later keeps the turn it was given (6 here).
    await queues.enqueue("mail", mails(a, 1)[0]!.data, { delay: 60_000 });
    await drain(5);
    // Nothing waits, one job is delayed: b starts after the highest turn handed out, a after its own.
    expect(await takeTurns(redis, queue, b, 1)).toEqual([7]);
    expect(await takeTurns(redis, queue, a, 1)).toEqual([8]);
    await queue.obliterate({ force: true });
    // Nothing delayed any more: from 1 again.
    expect(await takeTurns(redis, queue, b, 1)).toEqual([1]);
  });
});
