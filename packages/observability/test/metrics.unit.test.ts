import { describe, expect, it } from "vitest";
import { Registry } from "prom-client";
import { bearerMatches, pgPoolGauges, queueGauges, Sampled, serveMetrics } from "../src/index.ts";

const never = () => new Promise<never>(() => {});

describe("Sampled", () => {
  it("reads at most once per interval and shares a read between concurrent callers", async () => {
    let reads = 0;
    const s = new Sampled(async () => ++reads, 60_000, 1_000);
    expect(await Promise.all([s.get(), s.get(), s.get()])).toEqual([1, 1, 1]);
    expect(await s.get()).toBe(1);
    expect(reads).toBe(1);
    expect(s.ok).toBe(true);
  });

  it("gives up after its timeout, keeps the last value, and does not start a second read while one hangs", async () => {
    let reads = 0;
    let hang = false;
    const s = new Sampled(() => (reads++, hang ? never() : Promise.resolve(7)), 0, 50);
    expect(await s.get()).toBe(7);
    hang = true;
    const started = Date.now();
    expect(await s.get()).toBe(7);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(s.ok).toBe(false);
    await s.get();
    expect(reads).toBe(2);
  });
});

describe("queue gauges", () => {
  it("sums wait, prioritized and paused into waiting, per queue", async () => {
    const registry = new Registry();
    queueGauges(registry, [{ name: "mail", getJobCounts: async () => ({ waiting: 2, prioritized: 1, paused: 0, active: 3, delayed: 4, failed: 5 }) }]);
    const text = await registry.metrics();
    expect(text).toContain('insp_queue_jobs{queue="mail",state="waiting"} 3');
    expect(text).toContain('insp_queue_jobs{queue="mail",state="failed"} 5');
  });

  it("does not hang a scrape when Redis does not answer", async () => {
    const registry = new Registry();
    queueGauges(registry, [{ name: "mail", getJobCounts: never }], { timeoutMs: 50 });
    const started = Date.now();
    expect(await registry.metrics()).not.toContain('queue="mail"');
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("Postgres pool gauges", () => {
  it("read the patched driver's poolStats, and stay absent without it", async () => {
    const registry = new Registry();
    pgPoolGauges(registry, { poolStats: () => ({ max: 10, waiting: 2, connecting: 1, idle: 3, busy: 4, reserved: 2, closed: 0 }) });
    const text = await registry.metrics();
    expect(text).toContain('insp_pg_pool_connections{state="reserved"} 2');
    expect(text).toContain("insp_pg_pool_waiting_queries 2");
    expect(text).toContain("insp_pg_pool_max_connections 10");
    const bare = new Registry();
    pgPoolGauges(bare, {});
    expect(await bare.metrics()).not.toMatch(/^insp_pg_pool_connections\{/m);
  });
});

describe("the metrics token", () => {
  it("accepts only the exact Bearer token", () => {
    const token = "a-long-metrics-token-0123";
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerMatches(`bearer ${token}`, token)).toBe(true);
    for (const h of [undefined, "", token, `Bearer ${token}x`, `Bearer ${token.slice(1)}`, `Basic ${token}`, "Bearer "])
      expect(bearerMatches(h, token)).toBe(false);
  });

  it("answers 401 without the registry's content", async () => {
    const registry = new Registry();
    let reply: [number, string] = [0, ""];
    await serveMetrics(registry, "Bearer nope", "the-right-token-0123456", (status, _h, body) => (reply = [status, body]));
    expect(reply[0]).toBe(401);
    await serveMetrics(registry, "Bearer the-right-token-0123456", "the-right-token-0123456", (status, _h, body) => (reply = [status, body]));
    expect(reply[0]).toBe(200);
  });
});
