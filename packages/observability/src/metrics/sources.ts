import { Gauge, type Registry } from "prom-client";
import type { Sampled } from "./sampled.ts";

/** insp_metrics_source_up{source}: 1 when the last read of a sampled source (Redis, Postgres) worked. */
export function sourceUpGauge(registry: Registry, sources: Record<string, Sampled<unknown>>): Gauge<"source"> {
  return new Gauge({
    name: "insp_metrics_source_up",
    help: "1 when the last read of a sampled source for these metrics answered in time, else 0 (its series keep their last values)",
    labelNames: ["source"],
    registers: [registry],
    // Scrapes collect every metric at once: wait for the reads (shared with the gauges, not repeated).
    async collect() {
      await Promise.all(Object.values(sources).map((s) => s.get()));
      for (const [source, s] of Object.entries(sources)) this.set({ source }, s.ok ? 1 : 0);
    },
  });
}
