import { Redis } from "ioredis";
import { signalChannel, syncSignal } from "@insp/queue";
import type { BenchContext } from "./context.ts";
import { measureCpu, type CpuSplit } from "./cpu.ts";
import { employeeBatch, postSync, type EmployeeShape, type SyncBody } from "./fixtures.ts";
import type { Progress } from "./scenario.ts";
import { median, round, timed } from "./stats.ts";

/**
 * The untimed warm-up batch before timed rounds: as many employees as a batch, so that the
 * tables hold rows when the database is analyzed and prepared statements get their plans (plans
 * kept from near-empty tables scan them whole as they grow: bench/README.md).
 */
export const warmupSize = (batch: number) => batch;

let runTag = 0;
/** A tag unique within this run, for external ids and e-mails. */
export const newTag = (prefix: string) => `${prefix}${++runTag}x${Date.now().toString(36)}`;

export interface SyncRoundsResult {
  ms: number[];
  bodies: SyncBody[];
  /** CPU over the timed rounds (warm-up excluded). */
  cpu: CpuSplit;
  /** Per round, where the batch's time went (see Phases). */
  phases: Phases[];
}

/**
 * A batch's timeline from Postgres timestamps (each a transaction's start, on this machine's
 * clock): request sent -> sync request recorded (API: parse, validate) -> first employee's
 * transaction (enqueue, first job picked up) -> last employee's transaction (the workers) ->
 * answer (last job, the API's wait, the response).
 */
export interface Phases {
  apiFrontMs: number;
  queueStartMs: number;
  workersMs: number;
  tailMs: number;
  /** From the request's last job's countdown signal (the last employee committed) to the answer: the API's wait and response. */
  lastJobToAnswerMs: number;
  /** Postgres checkpoints during the round (other test suites' CREATE DATABASE forces them). */
  checkpoints: number;
}

/**
 * `rounds` synchronous POST /api/v1/sync/employees of `batch` employees each, one after the
 * other, after an untimed warm-up batch. `bodies` given: those batches are sent again
 * (sync-update); otherwise new employees. Every result must have `expect` as its status.
 */
type RoundsOptions = { label: string; shape?: EmployeeShape; bodies?: SyncBody[]; expect: "CREATED" | "UPDATED"; warmup?: boolean; rounds?: number };
/** `measureCpu: false`: no CPU figure (the caller measures it), so nothing waits after the last answer. */
export async function syncRounds(ctx: BenchContext, progress: Progress, o: RoundsOptions & { measureCpu: false }): Promise<Omit<SyncRoundsResult, "cpu">>;
export async function syncRounds(ctx: BenchContext, progress: Progress, o: RoundsOptions): Promise<SyncRoundsResult>;
export async function syncRounds(
  ctx: BenchContext,
  progress: Progress,
  o: RoundsOptions & { measureCpu?: boolean },
): Promise<Omit<SyncRoundsResult, "cpu"> & { cpu?: CpuSplit }> {
  const { batch } = ctx.opts;
  const rounds = o.rounds ?? ctx.opts.rounds;
  const token = await ctx.syncToken();
  if (o.warmup !== false) {
    const tag = newTag("warm");
    await postSync(ctx.http, token, { syncBatchId: tag, employees: employeeBatch(ctx.tenant, tag, warmupSize(batch), o.shape) });
  }
  await ctx.beforeRounds();
  const bodies: SyncBody[] = [];
  const ms: number[] = [];
  const phases: Phases[] = [];
  // The signal the last job of a request publishes (its countdown reaching zero), seen by a
  // subscriber of our own: when that job was done, as the API learns it.
  const redis = new Redis(ctx.opts.redisUrl, { maxRetriesPerRequest: 3 });
  const signalled = new Map<string, number>();
  redis.on("message", (_channel: string, id: string) => signalled.set(id, Date.now()));
  await redis.subscribe(signalChannel(ctx.queuePrefix));
  const checkpoints = async () => Number((await ctx.db.sql`select checkpoints_req + checkpoints_timed as n from pg_stat_bgwriter`)[0]?.n);
  const round1 = async (r: number) => {
    let body: SyncBody;
    if (o.bodies) {
      const given = o.bodies[r % o.bodies.length]!;
      body = {
        syncBatchId: `${given.syncBatchId}-again`,
        employees: given.employees.map((e) => ({ ...e, ...(o.shape?.jobTitle ? { jobTitle: o.shape.jobTitle } : {}) })),
      };
    } else {
      const tag = newTag(o.label);
      body = { syncBatchId: tag, employees: employeeBatch(ctx.tenant, tag, batch, o.shape) };
    }
    const checkpointsBefore = await checkpoints();
    const sentAt = Date.now();
    const { ms: took, value } = await timed(() => postSync(ctx.http, token, body));
    const answeredAt = Date.now();
    const wrong = value.results.filter((x) => x.status !== o.expect).length;
    if (wrong) throw new Error(`${wrong} results of ${o.label} round ${r + 1} are not ${o.expect}`);
    ctx.assertAlive();
    ms.push(took);
    bodies.push(body);
    // updated_at is the item transaction's now() (its start): the tail is an upper bound.
    const [t] = await ctx.db.sql`
      select extract(epoch from r.created_at) * 1000 as created, extract(epoch from min(i.updated_at)) * 1000 as first, extract(epoch from max(i.updated_at)) * 1000 as last
      from sync_requests r join sync_request_items i on i.request_id = r.id where r.id = ${value.requestId} group by r.created_at`;
    const [created, first, last] = [Number(t?.created), Number(t?.first), Number(t?.last)];
    const finished = signalled.get(syncSignal(value.requestId)) ?? Number.NaN;
    const forced = (await checkpoints()) - checkpointsBefore;
    phases.push({
      apiFrontMs: round(created - sentAt),
      queueStartMs: round(first - created),
      workersMs: round(last - first),
      tailMs: round(answeredAt - last),
      lastJobToAnswerMs: round(answeredAt - finished),
      checkpoints: forced,
    });
    const p = phases[r]!;
    progress(
      `round ${r + 1}/${rounds}: ${body.employees.length} employees in ${round(took, 0)} ms (${round((body.employees.length * 1000) / took, 0)}/s), ` +
        `API ${p.apiFrontMs} + start ${p.queueStartMs} + workers ${p.workersMs} + answer ${p.tailMs} ms (last job done ${p.lastJobToAnswerMs} ms before the answer)${forced ? `; ${forced} Postgres checkpoints meanwhile` : ""}`,
    );
  };
  try {
    const all = async () => {
      for (let r = 0; r < rounds; r++) await round1(r);
    };
    // measureCpu ends with a second's wait for Postgres statistics: a caller timing what follows
    // the answer (sync-accounts' mail delivery) measures CPU itself.
    if (o.measureCpu === false) {
      await all();
      return { ms, bodies, phases };
    }
    const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), all);
    return { ms, bodies, cpu, phases };
  } finally {
    redis.disconnect();
  }
}

/** Median phases: "API 40 ms, to first job 15 ms, workers 1,250 ms, last job to answer 30 ms". */
export function phaseNote(phases: Phases[]): string {
  const m = (k: keyof Phases) => round(median(phases.map((p) => p[k])), 0);
  const checkpoints = phases.reduce((n, p) => n + p.checkpoints, 0);
  return `phases (median): API until recorded ${m("apiFrontMs")} ms, to first employee ${m("queueStartMs")} ms, workers ${m("workersMs")} ms, last employee to answer ${m("tailMs")} ms (last job done to answer ${m("lastJobToAnswerMs")} ms)${checkpoints ? `; ${checkpoints} Postgres checkpoints during the rounds` : ""}`;
}

export function phaseMetrics(phases: Phases[]): Record<string, number> {
  const m = (k: keyof Phases) => round(median(phases.map((p) => p[k])), 1);
  return {
    apiFrontMedianMs: m("apiFrontMs"),
    queueStartMedianMs: m("queueStartMs"),
    workersMedianMs: m("workersMs"),
    tailMedianMs: m("tailMs"),
    lastJobToAnswerMedianMs: m("lastJobToAnswerMs"),
    checkpoints: phases.reduce((n, p) => n + p.checkpoints, 0),
  };
}
