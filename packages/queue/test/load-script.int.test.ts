import { afterAll, expect, inject, it } from "vitest";
import { createRedis, loadScript, type RedisClient } from "../src/index.ts";

// The rate limiters' scripts: loaded where Redis is, and named by their SHA1 even while Redis
// cannot be reached, so that a limiter made during an outage recovers by itself (NOSCRIPT, then
// loaded again) instead of keeping a failed load until the API restarts.

const clients: RedisClient[] = [];
afterAll(() => clients.forEach((c) => c.disconnect()));
const script = `return ${Date.now()}`;

it("loads a script and answers the SHA1 Redis knows it by", async () => {
  const redis = createRedis({ REDIS_URL: inject("redisUrl") }, "producer");
  clients.push(redis);
  const sha = await loadScript(redis, script);
  expect(sha).toMatch(/^[0-9a-f]{40}$/);
  expect(await redis.call("SCRIPT", "EXISTS", sha)).toEqual([1]);
  expect(await redis.call("EVALSHA", sha, "0")).toBe(Number(script.slice(7)));
});

it("answers the same SHA1, without rejecting, when Redis cannot be reached", async () => {
  const down = createRedis({ REDIS_URL: "redis://127.0.0.1:1" }, "producer", { retryStrategy: () => null }); // nothing listens on port 1;
  down.on("error", () => {}); // the refused connection is the point
  clients.push(down);
  const redis = createRedis({ REDIS_URL: inject("redisUrl") }, "producer");
  clients.push(redis);
  await expect(loadScript(down, script)).resolves.toBe(await loadScript(redis, script));
});
