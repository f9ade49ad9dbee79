import { Registry, collectDefaultMetrics } from "prom-client";

/** Every metric of ours, and prom-client's default ones, carry this prefix. */
const METRIC_PREFIX = "insp_";

/**
 * One registry per process (the API, each worker replica): Prometheus scrapes every process on
 * its own and tells them apart by its `instance` label, so nothing here is shared or summed
 * across replicas. prom-client's default metrics give event-loop lag, memory, GC, handles and
 * CPU; `service` says which kind of process a series comes from.
 */
export function createRegistry(service: "api" | "worker"): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  return registry;
}
