import { answerFor, publishedTemplate, randomPng } from "../lib/fixtures.ts";
import { peakRssMb, resetPeakRss, rssMb } from "../lib/rss.ts";
import type { Scenario } from "../lib/scenario.ts";
import { latencyRow } from "../lib/scenario.ts";
import { median, round, timed } from "../lib/stats.ts";

const MB = 1024 * 1024;
const IMAGES = 4;
const IMAGE_MB = 40;

/**
 * GET /api/inspections/{id} of an inspection with 4 uploaded 40 MB images, answered inline
 * (base64, the spec's default): MB/s of JSON and the API's peak RSS against its RSS before. The
 * images are streamed from the store as the client reads, so the peak stays flat.
 */
export const detail: Scenario = {
  name: "detail",
  describe: `GET /api/inspections/{id} with ${IMAGES} x ${IMAGE_MB} MB images inline (base64), 3 reads one after another: MB/s and the API's peak RSS`,
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
    const tpl = await publishedTemplate(ctx.http, t, 1);
    const imported = await ctx.http.post(
      "/api/inspections",
      { templateId: tpl.id, conductedBy: t.users.inspector.id, siteId: t.sites[0]!.id, answers: [{ ...answerFor(tpl.questions[0]!, 0), mediaIds }] },
      { auth: { bearer: t.apiKey } },
    );
    if (imported.status !== 201) throw new Error(`import answered ${imported.status}: ${imported.text.slice(0, 300)}`);
    const read = async () => {
      const res = await fetch(`${ctx.api.baseUrl}/api/inspections/${imported.body.id}`, { headers: auth });
      if (res.status !== 200) throw new Error(`detail answered ${res.status}`);
      let bytes = 0;
      for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) bytes += part.byteLength;
      return bytes;
    };
    await read(); // warm-up
    const api = ctx.api.child.pid;
    const resettable = await resetPeakRss(api);
    const before = await rssMb(api);
    const latencies: number[] = [];
    let jsonBytes = 0;
    for (let i = 0; i < 3; i++) {
      const { value, ms } = await timed(read);
      [jsonBytes, latencies[i]] = [value, ms];
    }
    const peak = resettable ? await peakRssMb(api) : Number.NaN;
    const mbPerS = jsonBytes / MB / (median(latencies) / 1000);
    const jsonMb = round(jsonBytes / MB);
    progress(`${jsonMb} MB of JSON per read, median ${round(median(latencies))} ms; API RSS ${round(before)} MB before, peak ${round(peak)} MB`);
    const row = latencyRow("detail", `${IMAGES} x ${IMAGE_MB} MB images inline, ${jsonMb} MB of JSON per read`, latencies);
    row.throughput = { value: round(mbPerS), unit: "MB/s" };
    row.extra = `API RSS ${round(before)} MB before, peak ${round(peak)} MB (+${round(peak - before)} MB while answering ${jsonMb} MB)`;
    return {
      name: "detail",
      rows: [row],
      metrics: {
        images: IMAGES,
        imageMb: IMAGE_MB,
        jsonMb,
        mbPerS: round(mbPerS),
        medianMs: round(median(latencies)),
        apiRssBeforeMb: round(before),
        apiPeakRssMb: round(peak),
      },
      samples: { detail: latencies },
      notes: resettable ? [] : ["detail: the API's peak RSS could not be measured (VmHWM not resettable)"],
    };
  },
};
