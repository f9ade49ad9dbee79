import { Gauge, type Registry } from "prom-client";
import { Sampled } from "./sampled.ts";

/** What the queue gauges need of a BullMQ Queue. */
export interface CountableQueue {
  readonly name: string;
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
}

const QUEUE_STATES = ["waiting", "active", "delayed", "failed"] as const;
type Counts = Map<string, Record<(typeof QUEUE_STATES)[number], number>>;

/**
 * insp_queue_jobs{queue,state}: read from Redis at scrape time (one pipelined call per queue),
 * at most every `everyMs` and within `timeoutMs`. These are facts about the shared queues, the
 * same from every process: dashboards take max() over instances. "waiting" counts every job
 * ready to run (BullMQ's wait, prioritized and paused lists).
 */
export function queueGauges(registry: Registry, queues: CountableQueue[], opts: { everyMs?: number; timeoutMs?: number } = {}) {
  const sampled = new Sampled<Counts>(
    async () => {
      const all = await Promise.all(queues.map((q) => q.getJobCounts("waiting", "prioritized", "paused", "active", "delayed", "failed")));
      return new Map(
        queues.map((q, i) => {
          const c = all[i]!;
          const n = (k: string) => c[k] ?? 0;
          return [q.name, { waiting: n("waiting") + n("prioritized") + n("paused"), active: n("active"), delayed: n("delayed"), failed: n("failed") }];
        }),
      );
    },
    opts.everyMs ?? 5_000,
    opts.timeoutMs ?? 2_000,
  );
  new Gauge({
    name: "insp_queue_jobs",
    help: "Jobs per queue and state (waiting, active, delayed, failed), read from Redis at scrape time",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      const counts = await sampled.get();
      for (const [queue, byState] of counts ?? []) for (const state of QUEUE_STATES) this.set({ queue, state }, byState[state]);
    },
  });
  return sampled;
}
