import { answerFor, publishedTemplate, randomPng } from "../lib/fixtures.ts";
import { peakRssMb, resetPeakRss, rssMb } from "../lib/rss.ts";
import type { Scenario } from "../lib/scenario.ts";
import { latencyRow } from "../lib/scenario.ts";
import { median, round } from "../lib/stats.ts";

const MB = 1024 * 1024;
const ANSWERS = 200;
const IMAGES = 50;
const IMAGE_MB = 2;
const RENDERS = 3;

/**
 * GET /api/inspections/{id}/report.pdf of an inspection with 200 answers and 50 uploaded 2 MB
 * images (1024 x 680 random pixels, one on each of the first 50 answers), rendered RENDERS times:
 * each time the site is renamed first, so the report's cache key changes and a worker renders it
 * anew (and deletes the previous one). Time from the first GET to the last byte of the PDF
 * (following the 202 and its status URL when a rendering outlasts REPORT_WAIT_SECONDS), pages/s,
 * and the worker's peak RSS against its RSS before.
 */
export const report: Scenario = {
  name: "report",
  describe: `GET /api/inspections/{id}/report.pdf of ${ANSWERS} answers with ${IMAGES} x ${IMAGE_MB} MB images, rendered ${RENDERS} times: pages/s and the worker's peak RSS`,
  async run(ctx, progress) {
    const t = await ctx.newTenant();
    const auth = { authorization: `Bearer ${t.apiKey}` };
    progress(`uploading ${IMAGES} random PNGs of ${IMAGE_MB} MB`);
    const mediaIds: string[] = [];
    for (let i = 0; i < IMAGES; i++) {
      const res = await fetch(`${ctx.api.baseUrl}/api/media`, {
        method: "POST",
        headers: { ...auth, "content-type": "image/png" },
        body: randomPng(IMAGE_MB * MB),
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      mediaIds.push(((await res.json()) as { mediaId: string }).mediaId);
    }
    const tpl = await publishedTemplate(ctx.http, t, ANSWERS);
    const answers = tpl.questions.map((q, i) => ({
      ...answerFor(q, i),
      ...(i < IMAGES ? { mediaIds: [mediaIds[i]!] } : {}),
      ...(i % 10 === 0 ? { note: `Note on answer ${i + 1}` } : {}),
    }));
    const imported = await ctx.http.post(
      "/api/inspections",
      { templateId: tpl.id, conductedBy: t.users.inspector.id, siteId: t.sites[0]!.id, answers },
      { auth: { bearer: t.apiKey } },
    );
    if (imported.status !== 201) throw new Error(`import answered ${imported.status}: ${imported.text.slice(0, 300)}`);
    const id = imported.body.id as string;

    /** One rendering, from the first GET to the PDF's last byte. */
    const render = async (n: number) => {
      await ctx.db.sql`update sites set name = ${`Bench plant ${n}`} where id = ${t.sites[0]!.id}`;
      const started = performance.now();
      let res = await fetch(`${ctx.api.baseUrl}/api/inspections/${id}/report.pdf`, { headers: auth });
      while (res.status === 202) {
        const { statusUrl } = (await res.json()) as { statusUrl: string };
        for (;;) {
          const s = (await (await fetch(`${ctx.api.baseUrl}${statusUrl}`, { headers: auth })).json()) as { status: string; error?: string };
          if (s.status === "FAILED") throw new Error(`report failed: ${s.error}`);
          if (s.status === "SUCCEEDED") break;
          await new Promise((r) => setTimeout(r, 200));
        }
        res = await fetch(`${ctx.api.baseUrl}/api/inspections/${id}/report.pdf`, { headers: auth });
      }
      if (res.status !== 200) throw new Error(`report answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
      let bytes = 0;
      for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) bytes += part.byteLength;
      const ms = performance.now() - started;
      const [row] = await ctx.db.sql<
        { pages: number }[]
      >`select pages from inspection_reports where inspection_id = ${id} and status = 'SUCCEEDED' order by created_at desc limit 1`;
      return { ms, bytes, pages: row!.pages };
    };

    progress("warm-up rendering");
    await render(0);
    const worker = ctx.workers[0]?.child.pid;
    const resettable = await resetPeakRss(worker);
    const before = await rssMb(worker);
    const latencies: number[] = [];
    let last = { ms: 0, bytes: 0, pages: 0 };
    for (let i = 1; i <= RENDERS; i++) {
      last = await render(i);
      latencies.push(last.ms);
      progress(`rendering ${i}: ${last.pages} pages, ${round(last.bytes / MB, 1)} MB in ${round(last.ms)} ms`);
    }
    const peak = resettable ? await peakRssMb(worker) : Number.NaN;
    const pagesPerS = last.pages / (median(latencies) / 1000);
    const pdfMb = round(last.bytes / MB, 1);
    const row = latencyRow("report", `${ANSWERS} answers, ${IMAGES} x ${IMAGE_MB} MB images: ${last.pages} pages, ${pdfMb} MB of PDF`, latencies);
    row.throughput = { value: round(pagesPerS, 1), unit: "pages/s" };
    row.extra = `worker RSS ${round(before)} MB before, peak ${round(peak)} MB (+${round(peak - before)} MB while rendering)`;
    return {
      name: "report",
      rows: [row],
      metrics: {
        answers: ANSWERS,
        images: IMAGES,
        imageMb: IMAGE_MB,
        pages: last.pages,
        pdfMb,
        pagesPerS: round(pagesPerS, 1),
        medianMs: round(median(latencies)),
        workerRssBeforeMb: round(before),
        workerPeakRssMb: round(peak),
      },
      samples: { report: latencies },
      notes: resettable ? [] : ["report: the worker's peak RSS could not be measured (VmHWM not resettable)"],
    };
  },
};
