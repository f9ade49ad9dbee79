import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import type { BenchContext } from "../lib/context.ts";
import { answerFor, employeeBatch, publishedTemplate, randomPng } from "../lib/fixtures.ts";
import { peakRssMb, resetPeakRss, rssMb } from "../lib/rss.ts";
import { measureCpu } from "../lib/cpu.ts";
import { cpuMetrics, type Scenario, type ScenarioResult } from "../lib/scenario.ts";
import { median, p95, round } from "../lib/stats.ts";

const EMPLOYEES_PER_SYNC = 10;

/** Waits until no sync item and no import of the tenant is pending, at most `ms`. */
async function drained(ctx: BenchContext, orgId: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const [row] = await ctx.db.sql<{ items: number; imports: number }[]>`
      select (select count(*)::int from sync_request_items where organization_id = ${orgId} and status = 'pending') as items,
             (select count(*)::int from inspection_imports where organization_id = ${orgId} and status = 'PENDING') as imports`;
    if (row!.items === 0 && row!.imports === 0) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/**
 * Mixed traffic for --soak-seconds (default 60) from autocannon on loopback: each connection
 * cycles through the inspections list, an inspection's detail, the templates list, an import
 * with one image, and a synchronous sync of 10 new employees. Then: no 5xx, no connection
 * error, every accepted sync item and import done exactly once (nothing lost, nothing twice),
 * and the RSS of the API and the worker at the start, at the end and at their peak.
 */
export const soak: Scenario = {
  name: "soak",
  describe: "mixed traffic (list, detail, templates, imports, syncs) for --soak-seconds; 5xx, lost items, RSS at start and end",
  async run(ctx, progress): Promise<ScenarioResult> {
    const seconds = ctx.opts.soakSeconds;
    const t = await ctx.newTenant();
    const tpl = await publishedTemplate(ctx.http, t, 6);
    const token = await ctx.syncToken(t);
    const importBody = () =>
      JSON.stringify({
        templateId: tpl.id,
        conductedBy: t.users.inspector.id,
        siteId: t.sites[0]!.id,
        answers: tpl.questions.map((q, i) => ({ ...answerFor(q, i), ...(i === 0 ? { media: [randomPng(32 * 1024).toString("base64")] } : {}) })),
      });
    const first = await ctx.http.request("POST", "/api/inspections", {
      auth: { bearer: t.apiKey },
      rawBody: importBody(),
      headers: { "content-type": "application/json" },
    });
    if (first.status !== 201) throw new Error(`seed import answered ${first.status}: ${first.text.slice(0, 300)}`);
    const detailId = first.body.id as string;
    const key = { authorization: `Bearer ${t.apiKey}` };
    const json = { "content-type": "application/json" };
    let syncs = 0;
    const requests: autocannon.Request[] = [
      { method: "GET", path: "/api/inspections", headers: key },
      { method: "GET", path: `/api/inspections/${detailId}`, headers: key },
      { method: "GET", path: "/api/templates", headers: key },
      { method: "POST", path: "/api/inspections", headers: { ...key, ...json }, setupRequest: (r) => ({ ...r, body: importBody() }) },
      {
        method: "POST",
        path: "/api/v1/sync/employees",
        headers: { authorization: `Bearer ${token}`, ...json },
        setupRequest: (r) => ({
          ...r,
          body: JSON.stringify({ syncBatchId: `soak-${syncs++}`, employees: employeeBatch(t, `soak${randomBytes(4).toString("hex")}`, EMPLOYEES_PER_SYNC) }),
        }),
      },
    ];
    const pids = { api: ctx.api.child.pid, worker: ctx.workers[0]?.child.pid };
    await Promise.all([resetPeakRss(pids.api), resetPeakRss(pids.worker)]);
    const rssStart = { api: await rssMb(pids.api), worker: await rssMb(pids.worker) };
    progress(
      `${seconds} s of mixed traffic, ${ctx.opts.connections} connections; RSS at start: API ${round(rssStart.api)} MB, worker ${round(rssStart.worker)} MB`,
    );
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const { value: result, cpu } = await measureCpu(
      ctx.db.sql,
      ctx.servicePids(),
      () =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const instance = autocannon({ url: ctx.api.baseUrl, connections: ctx.opts.connections, duration: seconds, requests, timeout: 120 }, (err, r) =>
            err ? reject(err) : resolve(r),
          );
          instance.on("response", (_c, status, _bytes, ms) => {
            latencies.push(ms);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          });
        }),
    );
    ctx.assertAlive();
    const allDone = await drained(ctx, t.organization.id, 120_000);
    const rssEnd = { api: await rssMb(pids.api), worker: await rssMb(pids.worker) };
    const peak = { api: await peakRssMb(pids.api), worker: await peakRssMb(pids.worker) };
    const [counts] = await ctx.db.sql<{ items: number; done: number; employees: number; imports: number; importsDone: number; inspections: number }[]>`
      select (select count(*)::int from sync_request_items where organization_id = ${t.organization.id}) as items,
             (select count(*)::int from sync_request_items where organization_id = ${t.organization.id} and status = 'done') as done,
             (select count(*)::int from employees where organization_id = ${t.organization.id}) as employees,
             (select count(*)::int from inspection_imports where organization_id = ${t.organization.id}) as imports,
             (select count(*)::int from inspection_imports where organization_id = ${t.organization.id} and status = 'DONE') as "importsDone",
             (select count(*)::int from inspections where organization_id = ${t.organization.id}) as inspections`;
    const c = counts!;
    const fiveXx = [...statuses].filter(([s]) => s >= 500).reduce((n, [, k]) => n + k, 0);
    // Every item accepted is done, made exactly one employee; every import recorded made exactly one inspection.
    const lost = c.items - c.done + (c.imports - c.importsDone);
    const twice = Math.abs(c.done - c.employees) + Math.abs(c.importsDone - c.inspections);
    progress(
      `${result.requests.total} requests (${[...statuses].map(([s, n]) => `${s}x${n}`).join(" ")}), ${result.errors} connection errors; ${c.done} employees, ${c.inspections} inspections; lost ${lost}, twice ${twice}; RSS at end: API ${round(rssEnd.api)} MB, worker ${round(rssEnd.worker)} MB`,
    );
    const notes: string[] = [];
    if (fiveXx || result.errors || lost || twice || !allDone)
      notes.push(
        `soak: ${fiveXx} answers of 5xx, ${result.errors} connection errors, ${lost} items lost, ${twice} done twice${allDone ? "" : ", work still pending after 2 minutes"}`,
      );
    return {
      name: "soak",
      rows: [
        {
          scenario: "soak",
          what: `mixed requests, ${ctx.opts.connections} connections, ${seconds} s`,
          n: result.requests.total,
          medianMs: round(median(latencies)),
          p95Ms: round(p95(latencies)),
          throughput: { value: round(result.requests.total / result.duration), unit: "req/s" },
          extra: `5xx ${fiveXx}, lost ${lost}, twice ${twice}; RSS API ${round(rssStart.api)} → ${round(rssEnd.api)} MB (peak ${round(peak.api)}), worker ${round(rssStart.worker)} → ${round(rssEnd.worker)} MB (peak ${round(peak.worker)})`,
        },
      ],
      metrics: {
        seconds,
        requests: result.requests.total,
        fiveXx,
        connectionErrors: result.errors,
        lostItems: lost,
        doneTwice: twice,
        employees: c.employees,
        inspections: c.inspections,
        apiRssStartMb: round(rssStart.api),
        apiRssEndMb: round(rssEnd.api),
        apiPeakRssMb: round(peak.api),
        workerRssStartMb: round(rssStart.worker),
        workerRssEndMb: round(rssEnd.worker),
        workerPeakRssMb: round(peak.worker),
        ...cpuMetrics(cpu, result.requests.total),
      },
      samples: {},
      notes,
    };
  },
};
