import type { Registry } from "prom-client";
import type { DbHandle } from "@insp/db";
import { outboxLagGauge } from "./outbox.ts";
import { pgPoolGauges } from "./pg-pool.ts";
import { queueGauges, type CountableQueue } from "./queues.ts";
import { createRegistry } from "./registry.ts";
import { sourceUpGauge } from "./sources.ts";

/**
 * The registry of one API or worker process, with what every process reports: default Node
 * metrics, its own Postgres pool, and the shared queue depths and outbox lag (read at scrape
 * time, so they are there even when no worker runs). The API adds HTTP timings, a worker its
 * job timings and sync counter.
 */
export function createServiceMetrics(service: "api" | "worker", deps: { dbHandle: DbHandle; queues: CountableQueue[] }): Registry {
  const registry = createRegistry(service);
  pgPoolGauges(registry, deps.dbHandle.sql);
  const redis = queueGauges(registry, deps.queues);
  const postgres = outboxLagGauge(registry, deps.dbHandle.sql);
  sourceUpGauge(registry, { redis, postgres });
  return registry;
}
