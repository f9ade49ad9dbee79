import type { BenchContext } from "./context.ts";
import { measureCpu, type CpuSplit } from "./cpu.ts";
import { employeeBatch, postSync, type EmployeeShape, type SyncBody } from "./fixtures.ts";
import type { Progress } from "./scenario.ts";
import { round, timed } from "./stats.ts";

/** Size of the untimed batch that warms up the API and the workers before timed rounds. */
export const WARMUP_BATCH = 50;

let runTag = 0;
/** A tag unique within this run, for external ids and e-mails. */
export const newTag = (prefix: string) => `${prefix}${++runTag}x${Date.now().toString(36)}`;

export interface SyncRoundsResult {
  ms: number[];
  bodies: SyncBody[];
  /** CPU over the timed rounds (warm-up excluded). */
  cpu: CpuSplit;
}

/**
 * `rounds` synchronous POST /api/v1/sync/employees of `batch` employees each, one after the
 * other, after an untimed warm-up batch. `bodies` given: those batches are sent again
 * (sync-update); otherwise new employees. Every result must have `expect` as its status.
 */
export async function syncRounds(
  ctx: BenchContext,
  progress: Progress,
  o: { label: string; shape?: EmployeeShape; bodies?: SyncBody[]; expect: "CREATED" | "UPDATED"; warmup?: boolean; rounds?: number },
): Promise<SyncRoundsResult> {
  const { batch } = ctx.opts;
  const rounds = o.rounds ?? ctx.opts.rounds;
  const token = await ctx.syncToken();
  if (o.warmup !== false) {
    const tag = newTag("warm");
    await postSync(ctx.http, token, { syncBatchId: tag, employees: employeeBatch(ctx.tenant, tag, Math.min(WARMUP_BATCH, batch), o.shape) });
  }
  const bodies: SyncBody[] = [];
  const ms: number[] = [];
  const round1 = async (r: number) => {
    let body: SyncBody;
    if (o.bodies) {
      const given = o.bodies[r % o.bodies.length]!;
      body = { syncBatchId: `${given.syncBatchId}-again`, employees: given.employees.map((e) => ({ ...e, ...(o.shape?.jobTitle ? { jobTitle: o.shape.jobTitle } : {}) })) };
    } else {
      const tag = newTag(o.label);
      body = { syncBatchId: tag, employees: employeeBatch(ctx.tenant, tag, batch, o.shape) };
    }
    const { ms: took, value } = await timed(() => postSync(ctx.http, token, body));
    const wrong = value.results.filter((x) => x.status !== o.expect).length;
    if (wrong) throw new Error(`${wrong} results of ${o.label} round ${r + 1} are not ${o.expect}`);
    ctx.assertAlive();
    ms.push(took);
    bodies.push(body);
    progress(`round ${r + 1}/${rounds}: ${body.employees.length} employees in ${round(took, 0)} ms (${round((body.employees.length * 1000) / took, 0)}/s)`);
  };
  const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), async () => {
    for (let r = 0; r < rounds; r++) await round1(r);
  });
  return { ms, bodies, cpu };
}
