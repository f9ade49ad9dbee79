import { Gauge, type Registry } from "prom-client";

/** What the patched postgres.js client answers (patches/postgres+3.4.9.patch, `poolStats`). */
interface PoolStats {
  max: number;
  waiting: number;
  connecting: number;
  idle: number;
  busy: number;
  reserved: number;
  closed: number;
}

/**
 * The pool's state, from the driver's own queues. postgres.js keeps them private, so our patch
 * adds a read-only `poolStats()` returning their lengths; without the patch these series are
 * simply absent. States: busy (running queries outside a transaction), reserved (held by a
 * transaction), idle (open, unused), connecting; the sum is the open connections.
 */
export function pgPoolGauges(registry: Registry, client: unknown): void {
  const stats = () => (client as { poolStats?: () => PoolStats }).poolStats?.();
  new Gauge({
    name: "insp_pg_pool_connections",
    help: "Postgres connections of this process by state: busy (running queries), reserved (in a transaction), idle, connecting",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const s = stats();
      if (!s) return;
      for (const state of ["busy", "reserved", "idle", "connecting"] as const) this.set({ state }, s[state]);
    },
  });
  new Gauge({
    name: "insp_pg_pool_waiting_queries",
    help: "Queries of this process waiting for a free Postgres connection",
    registers: [registry],
    collect() {
      const s = stats();
      if (s) this.set(s.waiting);
    },
  });
  new Gauge({
    name: "insp_pg_pool_max_connections",
    help: "Configured size of this process's Postgres pool (DB_POOL_MAX)",
    registers: [registry],
    collect() {
      const s = stats();
      if (s) this.set(s.max);
    },
  });
}
