import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultStack, startThrowawayRedisCluster, type FaultStack, type ThrowawayRedisCluster } from "@insp/testing";
import { caller, employees, report, sleep, until } from "./faults.fixtures.ts";

/**
 * A whole Redis Cluster lost at once (every master killed, started again empty): the API keeps
 * answering as it does when a single Redis is down (health 200, reads through the fail-open rate
 * limiter, 503 for work it cannot queue) instead of waiting for the cluster, and works again
 * once the cluster is back.
 */

let cluster: ThrowawayRedisCluster;
let stack: FaultStack;
beforeAll(async () => {
  cluster = await startThrowawayRedisCluster(3);
  const prefix = `{insp-ft-${randomBytes(3).toString("hex")}}`;
  stack = await startFaultStack({
    workers: 1,
    env: { REDIS_URL: `redis://${cluster.nodes[0]}`, REDIS_CLUSTER_NODES: cluster.nodes.join(","), QUEUE_PREFIX: prefix },
  });
});
afterAll(async () => {
  await stack?.stop();
  await cluster?.destroy();
});

/** The request's answer, or "no answer" after `ms`. */
const within = <T>(ms: number, p: Promise<T>) => Promise.race([p, sleep(ms).then(() => "no answer" as const)]);

describe("a Redis Cluster lost as a whole", () => {
  it("the API answers at once while it is gone (health, reads, 503 for a sync), and syncs again when it is back", async () => {
    const t = await stack.tenant();
    const api = await caller(stack, t);
    const first = await api.post({ employees: employees(t, 1) });
    expect(first.status, first.text).toBe(200);

    await cluster.stop();
    await sleep(1_000);
    const lost = Date.now();
    const health = await within(
      5_000,
      fetch(`${stack.http.baseUrl}/healthz`).then((r) => r.status),
    );
    expect(health).toBe(200);
    const read = await within(
      10_000,
      stack.http.get("/api/templates", { auth: { bearer: t.apiKey } }).then((r) => r.status),
    );
    expect(read).toBe(200);
    const during = await within(
      15_000,
      api.post({ employees: employees(t, 1) }).then((r) => r.status),
    );
    expect(during).toBe(503);
    report("Redis Cluster lost: health, a read and a refused sync all answered within", Date.now() - lost);
    expect(stack.alive()).toBe(true);

    await cluster.start();
    const back = Date.now();
    await until("a sync answered again", async () => (await api.post({ employees: employees(t, 1) })).status === 200, 60_000, 500);
    report("Redis Cluster back (empty): syncs answered again after", Date.now() - back);
  });
});
