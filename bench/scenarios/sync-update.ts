import type { Scenario } from "../lib/scenario.ts";
import { describeCpu } from "../lib/cpu.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { median, p95, round } from "../lib/stats.ts";
import { phaseMetrics, phaseNote, syncRounds } from "../lib/sync.ts";
import type { SyncBody } from "../lib/fixtures.ts";

/**
 * The batches of sync-create sent again, every employee UPDATED. jobTitle changes so each
 * employee is really written (an identical batch writes nothing: see mergeFields).
 */
export const syncUpdate: Scenario = {
  name: "sync-update",
  describe: "the sync-create batches again (all UPDATED, jobTitle changed)",
  async run(ctx, progress) {
    const { batch } = ctx.opts;
    let bodies = ctx.shared.get("sync-create:bodies") as SyncBody[] | undefined;
    if (!bodies) {
      progress("sync-create did not run: creating the batches first (untimed)");
      bodies = (await syncRounds(ctx, () => {}, { label: "upd", expect: "CREATED", warmup: false })).bodies;
    }
    const { ms, cpu, phases } = await syncRounds(ctx, progress, {
      label: "update",
      bodies,
      expect: "UPDATED",
      shape: { jobTitle: "Senior Technician" },
      warmup: false,
    });
    return {
      name: "sync-update",
      rows: [
        latencyRow(
          "sync-update",
          `batch of ${batch} existing employees (UPDATED), ${ctx.workers.length} worker`,
          ms,
          { items: batch, unit: "employees/s" },
          `${phaseNote(phases)}; ${describeCpu(cpu, ms.length * batch, "employee", "API+worker")}`,
        ),
      ],
      metrics: {
        batch,
        medianMs: round(median(ms)),
        p95Ms: round(p95(ms)),
        employeesPerS: round((batch * 1000) / median(ms)),
        ...phaseMetrics(phases),
        ...cpuMetrics(cpu, ms.length * batch),
      },
      samples: { batch: ms },
      notes: [],
    };
  },
};
