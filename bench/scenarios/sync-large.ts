import type { BenchContext } from "../lib/context.ts";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { employeeBatch } from "../lib/fixtures.ts";
import type { Scenario, ScenarioResult } from "../lib/scenario.ts";
import { cpuMetrics } from "../lib/scenario.ts";
import { median, p95, round } from "../lib/stats.ts";
import { newTag } from "../lib/sync.ts";

/**
 * A first large sync as an HR system sends it: --large-total employees (default 20,000) in
 * batches of --batch from --large-clients clients at once (default 4), each batch posted with
 * `Prefer: respond-async` and its status URL polled every 100 ms until completed. Timed: each
 * batch from its POST to its final result, and the whole sync. Then checked: every employee
 * CREATED exactly once, one employee row per id.
 */
async function oneBatch(ctx: BenchContext, token: string, tag: string, size: number): Promise<{ ms: number; created: number }> {
  const started = performance.now();
  const auth = { bearer: token };
  const res = await ctx.http.post(
    "/api/v1/sync/employees",
    { syncBatchId: tag, employees: employeeBatch(ctx.tenant, tag, size) },
    { auth, headers: { prefer: "respond-async" } },
  );
  if (res.status !== 202) throw new Error(`async sync answered ${res.status}: ${res.text.slice(0, 300)}`);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const s = await ctx.http.get(`/api/v1/sync/requests/${res.body.requestId}`, { auth });
    if (s.status !== 200) throw new Error(`status answered ${s.status}: ${s.text.slice(0, 300)}`);
    if (s.body.status !== "completed") continue;
    if (s.body.errors.length) throw new Error(`batch ${tag} reported errors: ${JSON.stringify(s.body.errors.slice(0, 3))}`);
    return { ms: performance.now() - started, created: s.body.results.filter((r: { status: string }) => r.status === "CREATED").length };
  }
}

export const syncLarge: Scenario = {
  name: "sync-large",
  freshDatabase: true,
  describe: "a first large sync: --large-total employees in batches from --large-clients clients, Prefer: respond-async and polling",
  async run(ctx, progress): Promise<ScenarioResult> {
    const { largeTotal: total, largeClients: clients, batch } = ctx.opts;
    const token = await ctx.syncToken();
    const batches = Array.from({ length: Math.ceil(total / batch) }, (_, i) => ({ tag: newTag(`large${i}`), size: Math.min(batch, total - i * batch) }));
    const latencies: number[] = [];
    let created = 0;
    let next = 0;
    const started = performance.now();
    const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), () =>
      Promise.all(
        Array.from({ length: clients }, async () => {
          while (next < batches.length) {
            const b = batches[next++]!;
            const r = await oneBatch(ctx, token, b.tag, b.size);
            latencies.push(r.ms);
            created += r.created;
            if (latencies.length % 10 === 0)
              progress(
                `${latencies.length}/${batches.length} batches done, ${created} employees, ${round((created * 1000) / (performance.now() - started), 0)}/s`,
              );
          }
        }),
      ),
    );
    const wallMs = performance.now() - started;
    ctx.assertAlive();
    const [row] = await ctx.db.sql<{ n: number; ids: number }[]>`
      select count(*)::int as n, count(distinct external_employee_id)::int as ids from employees where organization_id = ${ctx.tenant.organization.id} and external_employee_id like 'large%'`;
    const notes: string[] = [];
    if (created !== total || row!.n !== total || row!.ids !== total)
      notes.push(`sync-large: ${created} CREATED results, ${row!.n} employee rows, ${row!.ids} distinct ids for ${total} sent`);
    const perS = (created * 1000) / wallMs;
    return {
      name: "sync-large",
      rows: [
        {
          scenario: "sync-large",
          what: `${total} new employees in ${batches.length} batches of ${batch}, ${clients} clients, async + polling`,
          n: latencies.length,
          medianMs: round(median(latencies)),
          p95Ms: round(p95(latencies)),
          throughput: { value: round(perS), unit: "employees/s" },
          extra: `whole sync ${round(wallMs / 1000, 1)} s; per batch: POST to final result; ${row!.n} employee rows for ${total} ids; ${describeCpu(cpu, total, "employee", "API+worker")}`,
        },
      ],
      metrics: {
        total,
        clients,
        batches: batches.length,
        wallS: round(wallMs / 1000, 1),
        employeesPerS: round(perS),
        medianMs: round(median(latencies)),
        p95Ms: round(p95(latencies)),
        rows: row!.n,
        distinctIds: row!.ids,
        ...cpuMetrics(cpu, total),
      },
      samples: { batch: latencies },
      notes,
    };
  },
};
