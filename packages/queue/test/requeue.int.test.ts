import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RedisClient } from "../src/index.ts";
import { Queues, UnrecoverableError, Worker, createRedis, requeueMissing } from "../src/index.ts";

let redis: RedisClient;
let queues: Queues;
const prefix = `requeue-test-${randomBytes(4).toString("hex")}`;

beforeAll(() => {
  redis = createRedis({ REDIS_URL: inject("redisUrl") }, "worker");
  queues = new Queues(redis, prefix);
});
afterAll(async () => {
  await queues.queue("mail").obliterate({ force: true });
  await queues.close();
  redis.disconnect();
});

const item = (jobId: string) => ({ jobId, data: { organizationId: randomUUID(), outboxId: randomUUID() } });

describe("requeueMissing", () => {
  it("adds a missing job, retries a failed one, leaves a live one alone", async () => {
    const [failed, missing, waiting] = [item("failed-1"), item("missing-1"), item("waiting-1")];
    // One job fails for good, processed by a worker that then goes away.
    const worker = new Worker(
      "mail",
      async () => {
        throw new UnrecoverableError("boom");
      },
      { connection: createRedis({ REDIS_URL: inject("redisUrl") }, "worker"), prefix },
    );
    await queues.enqueue("mail", failed.data, { jobId: failed.jobId });
    const queue = queues.queue("mail");
    for (let i = 0; i < 200 && !(await (await queue.getJob(failed.jobId))?.isFailed()); i++) await new Promise((r) => setTimeout(r, 25));
    await worker.close();
    expect(await queue.getJobState(failed.jobId)).toBe("failed");
    await queues.enqueue("mail", waiting.data, { jobId: waiting.jobId });

    expect(await requeueMissing(queues, "mail", [failed, missing, waiting])).toBe(2);
    expect(await queue.getJobState(failed.jobId)).toBe("prioritized");
    expect((await queue.getJob(missing.jobId))?.data).toEqual(missing.data);
    expect(await queue.getJobCounts("waiting", "prioritized", "failed")).toEqual({ waiting: 0, prioritized: 3, failed: 0 });
    // Everything is live now: a second sweep does nothing.
    expect(await requeueMissing(queues, "mail", [failed, missing, waiting])).toBe(0);
  });
});
