import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { Queue } from "bullmq";
import { Cluster, Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { startStack, startThrowawayRedisCluster, until, type Stack, type ThrowawayRedisCluster } from "@insp/testing";
import { syncCaller, uniq } from "../fixtures/employee-sync.fixtures.ts";

// QUEUE_PREFIX with a Redis Cluster hash tag ({…}): every Redis key the service makes (BullMQ's
// queues and job hashes, the queue marker, the rate-limit counters) keeps working with braces in
// it, and on a cluster all of them land in the tag's one slot, as BullMQ's multi-key scripts need.

/** CRC16/XMODEM, the checksum Redis Cluster hashes keys with. */
function crc16(data: Buffer): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A key's cluster slot: of its hash tag (the first non-empty {…}) when it has one, else of the whole key. */
function keySlot(key: string): number {
  const open = key.indexOf("{");
  const close = open < 0 ? -1 : key.indexOf("}", open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  return crc16(Buffer.from(hashed)) % 16384;
}

async function keysOf(redisUrl: string, prefix: string): Promise<string[]> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  try {
    const keys: string[] = [];
    let cursor = "0";
    do {
      // Braces are no glob characters in SCAN's MATCH; the prefixes here hold nothing else special.
      const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    return keys;
  } finally {
    redis.disconnect();
  }
}

async function dropKeys(redisUrl: string, keys: string[]) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3 });
  try {
    for (const key of keys) await redis.unlink(key);
  } finally {
    redis.disconnect();
  }
}

/**
 * A real sync through the employee-sync queue (the API waits for its countdown), one employee
 * with a user account whose welcome mail goes through the mail queue to the development folder.
 */
async function syncWithWelcomeMail(stack: Stack) {
  await stack.settled();
  const t = await stack.tenant();
  const api = await syncCaller(stack, t);
  const [a, b] = [uniq(), uniq()];
  const { results, errors } = await api.sync([
    { externalEmployeeId: a.id, firstName: "Hash", lastName: "Tag", email: a.email, userAccount: { sendWelcomeEmail: true } },
    { externalEmployeeId: b.id, firstName: "Plain", lastName: "Row", email: b.email },
  ]);
  expect(errors).toEqual([]);
  expect(results.map((r) => r.externalEmployeeId).sort()).toEqual([a.id, b.id].sort());
  await until(
    "welcome mail written",
    () => readdir(stack.env.MAIL_DIR!).catch(() => [] as string[]),
    (files) => files.some((f) => f.endsWith(".eml")),
  );
}

describe("a queue prefix with a Redis Cluster hash tag", () => {
  describe("on the local Redis", () => {
    const prefix = `{insp-test-${randomBytes(4).toString("hex")}}`;
    let stack: Stack | undefined;
    afterAll(async () => {
      await stack?.stop();
      if (stack) await dropKeys(stack.env.REDIS_URL!, await keysOf(stack.env.REDIS_URL!, prefix));
    });

    it("runs a sync with its welcome mail; queues, job hashes, the queue marker and rate-limit counters are all keyed under it, in one slot", async () => {
      stack = await startStack({ workers: 1, env: { QUEUE_PREFIX: prefix } });
      await syncWithWelcomeMail(stack);
      const keys = await keysOf(stack.env.REDIS_URL!, prefix);
      expect(keys).toContain(`${prefix}:epoch`);
      for (const part of [":employee-sync:", ":mail:", ":rl:"])
        expect(
          keys.some((k) => k.includes(part)),
          part,
        ).toBe(true);
      expect(new Set(keys.map(keySlot))).toEqual(new Set([keySlot(prefix)]));
    });
  });

  describe("on a Redis Cluster of three masters (REDIS_CLUSTER_NODES)", () => {
    let cluster: ThrowawayRedisCluster | undefined;
    let stack: Stack | undefined;
    afterAll(async () => {
      await stack?.stop();
      await cluster?.destroy();
    });

    it("refuses BullMQ's scripts under a prefix without a tag, and runs the whole service under one with a tag, on a node its seed does not hold", async () => {
      cluster = await startThrowawayRedisCluster(3);
      const seedNodes = cluster.nodes.map((n) => ({ host: "127.0.0.1", port: Number(n.split(":")[1]) }));
      const connection = new Cluster(seedNodes, { redisOptions: { maxRetriesPerRequest: 3 } });
      const plain = new Queue("employee-sync", { connection, prefix: "insp-plain" });
      try {
        await expect(plain.add("employee-sync", {})).rejects.toThrow(/CROSSSLOT|same slot/);
      } finally {
        await plain.close();
        connection.disconnect();
      }

      // A tag whose slot lives on the second or third master: the service must follow MOVED from the first.
      let prefix = "";
      do prefix = `{insp-cluster-${randomBytes(4).toString("hex")}}`;
      while (cluster.nodeOf(keySlot(prefix)) === cluster.nodes[0]);
      const owner = cluster.nodeOf(keySlot(prefix));
      stack = await startStack({
        workers: 1,
        env: { REDIS_URL: `redis://${cluster.nodes[0]}`, REDIS_CLUSTER_NODES: cluster.nodes.join(","), QUEUE_PREFIX: prefix },
      });
      expect((await stack.http.get("/readyz", { auth: null })).body).toMatchObject({ status: "ready", redis: "up" });
      await syncWithWelcomeMail(stack);
      const keys = await keysOf(`redis://${owner}`, prefix);
      expect(keys).toContain(`${prefix}:epoch`);
      for (const part of [":employee-sync:", ":mail:", ":rl:"])
        expect(
          keys.some((k) => k.includes(part)),
          part,
        ).toBe(true);
      // The rate limit counts on the cluster (it would let everything through, fail open, if its script could not run).
      const t = await stack.tenant();
      const remaining = async () => Number((await stack!.http.get("/api/templates", { auth: { bearer: t.apiKey } })).headers.get("ratelimit-remaining"));
      const first = await remaining();
      expect(await remaining()).toBe(first - 1);
      expect(stack.api.output() + stack.workers[0]!.output()).not.toMatch(/CROSSSLOT|MOVED|ClusterAllFailed/);
    });
  });
});
