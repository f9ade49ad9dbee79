import type { Scenario } from "../lib/scenario.ts";
import { describeCpu } from "../lib/cpu.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { drift, median, p95, round } from "../lib/stats.ts";
import { phaseMetrics, phaseNote, syncRounds } from "../lib/sync.ts";

/** Batches of new employees (2 roles, 1 group, 1 site, a user account), through the API, the queue and the workers. */
export const syncCreate: Scenario = {
  name: "sync-create",
  freshDatabase: true,
  describe: "POST /api/v1/sync/employees, batches of new employees with roles, group, site and userAccount",
  async run(ctx, progress) {
    const { batch } = ctx.opts;
    const workers = ctx.workers.length;
    const { ms, bodies, cpu, phases } = await syncRounds(ctx, progress, { label: "create", expect: "CREATED" });
    ctx.shared.set("sync-create:bodies", bodies);
    return {
      name: "sync-create",
      rows: [
        latencyRow(
          "sync-create",
          `batch of ${batch} new employees, ${workers} worker`,
          ms,
          { items: batch, unit: "employees/s" },
          `drift ${Number.isFinite(drift(ms)) ? `${round(drift(ms) * 100, 0)}%` : "–"} (last 5 rounds vs first 5); ${phaseNote(phases)}; ${describeCpu(cpu, ms.length * batch, "employee", "API+worker")}`,
        ),
      ],
      metrics: {
        batch,
        workers,
        medianMs: round(median(ms)),
        p95Ms: round(p95(ms)),
        employeesPerS: round((batch * 1000) / median(ms)),
        drift: round(drift(ms), 3),
        ...phaseMetrics(phases),
        ...cpuMetrics(cpu, ms.length * batch),
      },
      samples: { batch: ms },
      notes: [],
    };
  },
};
