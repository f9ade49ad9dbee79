import type { DemoSeed } from "@insp/core";
import type { BenchContext } from "../lib/context.ts";
import { publishedTemplate } from "../lib/fixtures.ts";
import { peakRssMb, resetPeakRss, rssMb } from "../lib/rss.ts";
import type { Row, Scenario, ScenarioResult } from "../lib/scenario.ts";
import { round } from "../lib/stats.ts";

/** Questions of the template (answered by every inspection). */
const QUESTIONS = 6;

/**
 * `size` inspections of one template with an answer to each of its questions (text with commas,
 * quotes and a formula-looking value among them), one a minute back from now, inserted in SQL.
 */
async function seed(ctx: BenchContext, t: DemoSeed, size: number): Promise<string> {
  const tpl = await publishedTemplate(ctx.http, t, QUESTIONS);
  const sql = ctx.db.sql;
  const org = t.organization.id;
  await sql`
    insert into inspections (organization_id, inspection_number, template_id, template_version, site_id, conducted_by, status, started_at, completed_at, created_at, updated_at,
      score, max_score, score_percentage, flagged_count, latitude, longitude)
    select ${org}, 'EXP-' || lpad(g::text, 7, '0'), ${tpl.id}, 1, ${t.sites[0]!.id}::uuid, ${t.users.inspector.id}::uuid, 'COMPLETED',
      ts - interval '20 minutes', ts, ts, ts, g % 11, 10, (g % 11) * 10, case when g % 9 = 0 then 1 else 0 end, 52.5, 13.4
    from generate_series(1, ${size}::int) g, lateral (select now() - (${size}::int - g) * interval '1 minute' as ts) x`;
  const questions = tpl.questions.map((q, i) => ({ id: q.id, pos: i }));
  await sql`
    insert into inspection_answers (organization_id, inspection_id, question_id, answer_text, answer_number, note, position)
    select i.organization_id, i.id, q.id::uuid,
      case when q.pos % 3 = 0 then 'Checked, all "fine"' when q.pos % 3 = 1 then '=1+1' end,
      case when q.pos % 3 = 2 then 12.5 end,
      case when q.pos = 0 then 'seen by the site manager' end,
      q.pos
    from inspections i cross join jsonb_to_recordset(${JSON.stringify(questions)}::jsonb) as q(id text, pos int)
    where i.organization_id = ${org}`;
  await sql`insert into inspection_counters (organization_id, last_number) values (${org}, ${size}) on conflict (organization_id) do update set last_number = excluded.last_number`;
  await sql.unsafe("vacuum analyze inspections, inspection_answers");
  return tpl.id;
}

export const exportScenario: Scenario = {
  name: "export",
  describe: "POST /api/exports of N bulk-inserted inspections with includeAnswers, CSV and XLSX: rows/s and the worker's peak RSS",
  async run(ctx, progress): Promise<ScenarioResult> {
    const size = ctx.opts.listSize;
    const t = await ctx.newTenant();
    progress(`inserting ${size} inspections with ${QUESTIONS} answers each`);
    const templateId = await seed(ctx, t, size);
    const worker = ctx.workers[0]!.child.pid!;
    const auth = { auth: { bearer: t.apiKey } };
    const rows: Row[] = [];
    const metrics: Record<string, number> = { size };
    const notes: string[] = [];
    for (const format of ["csv", "xlsx"] as const) {
      // Peak RSS from here on (writing 5 to clear_refs resets VmHWM to the current RSS).
      if (!(await resetPeakRss(worker))) notes.push("could not reset the worker's peak RSS: the figure includes its earlier peak");
      const before = round(await rssMb(worker), 1);
      const started = performance.now();
      const res = await ctx.http.post("/api/exports", { format, filter: { templateId }, includeAnswers: true }, auth);
      if (res.status !== 202) throw new Error(`export refused: ${res.status} ${res.text}`);
      let status: { status: string; rowsWritten: number; byteSize: number | null };
      let lastReport = 0;
      for (;;) {
        status = (await ctx.http.get(`/api/exports/${res.body.id}`, auth)).body;
        if (status.status !== "QUEUED" && status.status !== "RUNNING") break;
        if (performance.now() - lastReport > 10_000) {
          progress(`${format}: ${status.rowsWritten} rows`);
          lastReport = performance.now();
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      const ms = performance.now() - started;
      if (status.status !== "SUCCEEDED" || status.rowsWritten !== size)
        throw new Error(`${format} export ended ${status.status} with ${status.rowsWritten} rows`);
      const peak = round(await peakRssMb(worker), 1);
      const rate = round((size * 1000) / ms);
      const mb = round((status.byteSize ?? 0) / 1024 / 1024, 1);
      progress(`${format}: ${size} rows in ${round(ms / 1000, 1)} s (${rate} rows/s), ${mb} MB, worker RSS ${before} MB before, peak ${peak} MB`);
      rows.push({
        scenario: "export",
        what: `${format}, ${size} inspections, ${QUESTIONS} answer columns`,
        n: 1,
        medianMs: round(ms),
        p95Ms: round(ms),
        throughput: { value: rate, unit: "rows/s" },
        extra: `${mb} MB; worker RSS ${before} MB -> peak ${peak} MB`,
      });
      Object.assign(metrics, {
        [`${format}RowsPerS`]: rate,
        [`${format}Ms`]: round(ms),
        [`${format}MB`]: mb,
        [`${format}WorkerRssBeforeMb`]: before,
        [`${format}WorkerPeakRssMb`]: peak,
      });
    }
    return { name: "export", rows, metrics, samples: {}, notes };
  },
};
