import { validateEmployee } from "@insp/contracts";
import { createSyncRequest, runSyncItem, type NewItem } from "@insp/core";
import type { BenchContext } from "../lib/context.ts";
import { employeeBatch } from "../lib/fixtures.ts";
import type { Progress, Scenario } from "../lib/scenario.ts";
import { describeCpu, measureCpu, type CpuSplit } from "../lib/cpu.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { drift, median, p95, pool, round, timed } from "../lib/stats.ts";
import { newTag, warmupSize } from "../lib/sync.ts";

/**
 * One batch the way a worker would process it, minus HTTP and the queue: the request and its
 * items recorded as the API records them (createSyncRequest), then runSyncItem, the function
 * the employee-sync job calls (one transaction per employee), for every item over this
 * process's pool (DB_POOL_MAX connections) with WORKER_CONCURRENCY items in flight.
 */
async function floorBatch(ctx: BenchContext, size: number, tag: string): Promise<number> {
  const organizationId = ctx.tenant.organization.id;
  const items: NewItem[] = employeeBatch(ctx.tenant, tag, size).map((raw, idx) => {
    const v = validateEmployee(raw);
    if (!v.ok) throw new Error(`bench employee invalid: ${v.message}`);
    return { idx, externalEmployeeId: v.employee.externalEmployeeId, input: v.employee };
  });
  const { ms } = await timed(async () => {
    const r = await createSyncRequest(ctx.db.db, { organizationId, clientId: null, syncBatchId: tag, dryRun: false, items });
    const runs = await pool(r.items, ctx.opts.workerConcurrency, (item) =>
      runSyncItem(ctx.db.db, { organizationId, requestId: r.requestId, itemId: item.id }, { lastAttempt: true }),
    );
    const notDone = runs.filter((x) => x.kind !== "done");
    if (notDone.length) throw new Error(`${notDone.length} floor items ended ${notDone[0]!.kind}`);
  });
  return ms;
}

async function floorRounds(ctx: BenchContext, progress: Progress): Promise<{ ms: number[]; cpu: CpuSplit }> {
  const { rounds, batch } = ctx.opts;
  await floorBatch(ctx, warmupSize(batch), newTag("floorwarm"));
  await ctx.beforeRounds();
  const ms: number[] = [];
  const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), async () => {
    for (let r = 0; r < rounds; r++) {
      ms.push(await floorBatch(ctx, batch, newTag("floor")));
      progress(`round ${r + 1}/${rounds}: ${batch} employees in ${round(ms[r]!, 0)} ms (${round((batch * 1000) / ms[r]!, 0)}/s)`);
    }
  });
  return { ms, cpu };
}

export const syncFloor: Scenario = {
  name: "sync-floor",
  freshDatabase: true,
  describe: "runSyncItem for each employee from the bench process (same pool size and concurrency), no HTTP, no queue",
  async run(ctx, progress) {
    const { batch, workerConcurrency, poolSize } = ctx.opts;
    const { ms, cpu } = await floorRounds(ctx, progress);
    return {
      name: "sync-floor",
      rows: [
        latencyRow(
          "sync-floor",
          `batch of ${batch} new employees, in-process, ${workerConcurrency} in flight over ${poolSize} connections`,
          ms,
          { items: batch, unit: "employees/s" },
          describeCpu(cpu, ms.length * batch, "employee", "API+worker (idle)"),
        ),
      ],
      metrics: {
        batch,
        medianMs: round(median(ms)),
        p95Ms: round(p95(ms)),
        employeesPerS: round((batch * 1000) / median(ms)),
        drift: round(drift(ms), 3),
        ...cpuMetrics(cpu, ms.length * batch),
      },
      samples: { batch: ms },
      notes: [],
    };
  },
};
