import type { Scenario } from "../lib/scenario.ts";
import { describeCpu, type CpuSplit } from "../lib/cpu.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { median, round } from "../lib/stats.ts";
import { phaseNote, syncRounds, type Phases } from "../lib/sync.ts";

/**
 * sync-create with 1 and then 2 worker processes, back to back so both see the same machine
 * load; the ratio is the throughput gained by the second replica.
 */
export const scale: Scenario = {
  name: "scale",
  describe: "sync-create with 1 and with 2 worker processes (throughput ratio)",
  async run(ctx, progress) {
    const { batch } = ctx.opts;
    const initial = ctx.workers.length;
    const ms: Record<number, number[]> = {};
    const cpu: Record<number, CpuSplit> = {};
    const phases: Record<number, Phases[]> = {};
    for (const n of [1, 2]) {
      if (ctx.workers.length !== n) {
        progress(`restarting with ${n} worker process${n > 1 ? "es" : ""}`);
        await ctx.setWorkers(n);
        if (ctx.opts.profileDir) progress(`profiling ${ctx.pids()}`);
      }
      ({ ms: ms[n], cpu: cpu[n], phases: phases[n] } = await syncRounds(ctx, (m) => progress(`${n}w ${m}`), { label: `scale${n}w`, expect: "CREATED" }));
    }
    if (ctx.workers.length !== initial) await ctx.setWorkers(initial);
    const rate = (n: number) => (batch * 1000) / median(ms[n]!);
    return {
      name: "scale",
      rows: [1, 2].map((n) =>
        latencyRow(
          "scale",
          `batch of ${batch} new employees, ${n} worker${n > 1 ? "s" : ""} x ${ctx.opts.workerConcurrency} jobs`,
          ms[n]!,
          { items: batch, unit: "employees/s" },
          `${phaseNote(phases[n]!)}; ${describeCpu(cpu[n]!, ms[n]!.length * batch, "employee", "API+workers")}`,
        ),
      ),
      metrics: {
        batch,
        oneWorkerPerS: round(rate(1)),
        twoWorkersPerS: round(rate(2)),
        ratio: round(rate(2) / rate(1), 2),
        ...cpuMetrics(cpu[1]!, ms[1]!.length * batch, "oneWorkerCpu"),
        ...cpuMetrics(cpu[2]!, ms[2]!.length * batch, "twoWorkersCpu"),
      },
      samples: { oneWorker: ms[1]!, twoWorkers: ms[2]! },
      notes: [],
    };
  },
};
