import autocannon from "autocannon";
import type { DemoSeed } from "@insp/core";
import { freePort } from "@insp/testing/processes";
import type { BenchContext } from "../lib/context.ts";
import { startNode } from "../lib/process.ts";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { publishedTemplate } from "../lib/fixtures.ts";
import { cpuMetrics, type Row, type Scenario, type ScenarioResult } from "../lib/scenario.ts";
import { median, p95, quantile, round, timed } from "../lib/stats.ts";

/** Answers per bulk-inserted inspection. */
const ANSWERS = 3;
const WARMUP_SECONDS = 2;

/**
 * `size` inspections of one organization (a few answers each) written with INSERT ... SELECT
 * FROM generate_series, one per minute back from now, then VACUUM ANALYZE as autovacuum
 * would eventually do on a table of that size. Scores spread over 0..100 %, one in seven
 * inspections flagged, and a location on every other one (a grid around Berlin), so the filters
 * of issue 22 have something to find.
 */
async function bulkInsert(ctx: BenchContext, t: DemoSeed, size: number) {
  const tpl = await publishedTemplate(ctx.http, t, ANSWERS);
  const [q0, q1, q2] = tpl.questions.map((q) => q.id);
  const sql = ctx.db.sql;
  const org = t.organization.id;
  await sql`
    insert into inspections (organization_id, inspection_number, template_id, template_version, site_id, conducted_by, status, started_at, completed_at, created_at, updated_at,
      score, max_score, score_percentage, flagged_count, latitude, longitude)
    select ${org}, 'INS-' || lpad(g::text, 6, '0'), ${tpl.id}, 1,
      case when g % 2 = 0 then ${t.sites[0]!.id}::uuid else ${t.sites[1]!.id}::uuid end,
      case when g % 3 = 0 then ${t.users.admin.id}::uuid else ${t.users.inspector.id}::uuid end,
      case when g % 10 = 0 then 'IN_PROGRESS' else 'COMPLETED' end,
      ts - interval '30 minutes', case when g % 10 = 0 then null else ts end, ts, ts,
      g % 101, 100, g % 101, case when g % 7 = 0 then 1 else 0 end,
      case when g % 2 = 0 then 52.3 + (g % 100) * 0.004 end, case when g % 2 = 0 then 13.1 + (g % 97) * 0.007 end
    from generate_series(1, ${size}::int) g, lateral (select now() - (${size}::int - g) * interval '1 minute' as ts) x`;
  await sql`
    insert into inspection_answers (organization_id, inspection_id, question_id, answer_text, answer_number, answer_boolean, note, position)
    select i.organization_id, i.id, q.id,
      case when q.pos = 0 then 'All fine, nothing to report' end,
      case when q.pos = 1 then 21.5 end,
      case when q.pos = 2 then true end,
      case when q.pos = 0 then 'checked' end,
      q.pos
    from inspections i cross join (values (${q0!}::uuid, 0), (${q1!}::uuid, 1), (${q2!}::uuid, 2)) as q(id, pos)
    where i.organization_id = ${org}`;
  // Later imports into this organization continue the numbering.
  await sql`insert into inspection_counters (organization_id, last_number) values (${org}, ${size}) on conflict (organization_id) do update set last_number = excluded.last_number`;
  await sql.unsafe("vacuum analyze inspections, inspection_answers");
}

interface Load {
  latencies: number[];
  requests: number;
  non2xx: number;
  errors: number;
  durationS: number;
  reqPerS: number;
}

/** Autocannon against one path; response times are collected per request so p95 can be computed (autocannon reports p90 and p97.5). */
async function load(url: string, apiKey: string, connections: number, seconds: number): Promise<Load> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, headers: { authorization: `Bearer ${apiKey}` } }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
    instance.on("response", (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  return {
    latencies,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    durationS: result.duration,
    reqPerS: result.requests.total / result.duration,
  };
}

export const list: Scenario = {
  name: "list",
  describe: "GET /api/inspections over N bulk-inserted inspections: page 1, offset 5000, includeAnswers, autocannon",
  async run(ctx, progress): Promise<ScenarioResult> {
    const { listSize: size, connections, listDuration } = ctx.opts;
    const t = await ctx.newTenant();
    progress(`inserting ${size} inspections with ${ANSWERS} answers each`);
    const setup = await timed(() => bulkInsert(ctx, t, size));
    progress(`inserted and analyzed in ${round(setup.ms / 1000)} s`);

    const offset = Math.min(5000, Math.max(0, size - 50));
    const endpoints = [
      { key: "page1", what: "page 1 (limit 50)", path: "/api/inspections" },
      { key: "offset", what: `page at offset ${offset}`, path: `/api/inspections?offset=${offset}` },
      { key: "answers", what: "page 1, includeAnswers=true", path: "/api/inspections?includeAnswers=true" },
      { key: "flagged", what: "page 1, flagged=true (1 in 7)", path: "/api/inspections?flagged=true" },
      { key: "score", what: "page 1, minScorePercentage=90 (1 in 10)", path: "/api/inspections?minScorePercentage=90" },
      { key: "bbox", what: "page 1, bbox (a quarter of the located)", path: "/api/inspections?bbox=13.1,52.3,13.44,52.5" },
    ];
    const rows: Row[] = [];
    const metrics: Record<string, number> = { size, connections, setupS: round(setup.ms / 1000) };
    // Per-request latencies are too many to keep: metrics hold their percentiles.
    const samples: Record<string, number[]> = {};
    const notes: string[] = [];
    for (const e of endpoints) {
      const url = `${ctx.api.baseUrl}${e.path}`;
      await load(url, t.apiKey, connections, WARMUP_SECONDS);
      const { value: r, cpu } = await measureCpu(ctx.db.sql, [ctx.api.child.pid!], () => load(url, t.apiKey, connections, listDuration));
      ctx.assertAlive();
      progress(`${e.what}: ${r.requests} requests, p50 ${round(median(r.latencies))} ms, p95 ${round(p95(r.latencies))} ms, ${round(r.reqPerS)} req/s`);
      const extra =
        `${connections} connections, ${r.durationS} s; p99 ${round(quantile(r.latencies, 0.99))} ms; ${describeCpu(cpu, r.requests, "request", "API", true)}` +
        (r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : "");
      rows.push({
        scenario: "list",
        what: e.what,
        n: r.requests,
        medianMs: round(median(r.latencies)),
        p95Ms: round(p95(r.latencies)),
        throughput: { value: round(r.reqPerS), unit: "req/s" },
        extra,
      });
      Object.assign(metrics, {
        [`${e.key}P50Ms`]: round(median(r.latencies)),
        [`${e.key}P95Ms`]: round(p95(r.latencies)),
        [`${e.key}P99Ms`]: round(quantile(r.latencies, 0.99)),
        [`${e.key}ReqPerS`]: round(r.reqPerS),
        [`${e.key}Non2xx`]: r.non2xx + r.errors,
        [`${e.key}ApiCpuMsPerReq`]: round(cpu.serviceMs / r.requests, 2),
        ...cpuMetrics(cpu, r.requests, `${e.key}Cpu`),
        [`${e.key}PgCpuMsPerReq`]: round(cpu.postgresMs / r.requests, 2),
        [`${e.key}PgTransactionsPerReq`]: round(cpu.pgTransactions / r.requests, 2),
        [`${e.key}MachineBusy`]: cpu.machineBusy,
        [`${e.key}OthersCpuMs`]: cpu.othersMs,
      });
      if (r.non2xx || r.errors) notes.push(`list ${e.what}: ${r.non2xx} non-2xx responses and ${r.errors} connection errors`);
    }
    // The floor: the same function, SQL and JSON behind a bare node:http handler, same load.
    const port = await freePort();
    const floor = startNode("bench/lib/list-floor-server.ts", { ...ctx.env, ORGANIZATION_ID: t.organization.id, PORT: String(port), DB_POOL_MAX: "10" });
    try {
      for (let i = 0; i < 100 && !floor.output().includes("list floor ready"); i++) await new Promise((r) => setTimeout(r, 100));
      const url = `http://127.0.0.1:${port}/`;
      await load(url, t.apiKey, connections, WARMUP_SECONDS);
      const { value: r, cpu } = await measureCpu(ctx.db.sql, [floor.child.pid!], () => load(url, t.apiKey, connections, listDuration));
      progress(
        `floor (node:http, same SQL and JSON): ${r.requests} requests, p50 ${round(median(r.latencies))} ms, p95 ${round(p95(r.latencies))} ms, ${round(r.reqPerS)} req/s`,
      );
      rows.push({
        scenario: "list",
        what: "floor: page 1 from a bare node:http handler, same SQL and JSON",
        n: r.requests,
        medianMs: round(median(r.latencies)),
        p95Ms: round(p95(r.latencies)),
        throughput: { value: round(r.reqPerS), unit: "req/s" },
        extra:
          `${connections} connections, ${r.durationS} s; ${describeCpu(cpu, r.requests, "request", "floor server", true)}` +
          (r.non2xx || r.errors ? `; ${r.non2xx} non-2xx, ${r.errors} errors` : ""),
      });
      Object.assign(metrics, {
        floorReqPerS: round(r.reqPerS),
        floorP95Ms: round(p95(r.latencies)),
        floorCpuMsPerReq: round(cpu.serviceMs / r.requests, 2),
        page1ToFloor: round(metrics.page1ReqPerS! / r.reqPerS, 2),
      });
    } finally {
      await floor.stop();
    }
    return { name: "list", rows, metrics, samples, notes };
  },
};
