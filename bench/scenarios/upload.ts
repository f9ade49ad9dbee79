import { randomPng } from "../lib/fixtures.ts";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { peakRssMb, resetPeakRss, rssMb } from "../lib/rss.ts";
import type { Scenario } from "../lib/scenario.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { median, round, timed } from "../lib/stats.ts";

const MB = 1024 * 1024;
/** The upload's size; the bench runs the service with MEDIA_MAX_IMAGE_MB 64. */
const UPLOAD_MB = 50;

/**
 * POST /api/media with a 50 MB image from each of `--import-clients` clients at once: MB/s and the
 * API's peak RSS against its RSS before, which stays flat when uploads are streamed to the
 * store instead of held in memory.
 */
export const upload: Scenario = {
  name: "upload",
  describe: `POST /api/media, one ${UPLOAD_MB} MB image per client, --import-clients at once: MB/s and the API's peak RSS`,
  async run(ctx, progress) {
    const clients = ctx.opts.importClients;
    const t = await ctx.newTenant();
    progress(`generating ${clients} random PNGs of ${UPLOAD_MB} MB`);
    const images = Array.from({ length: clients }, () => randomPng(UPLOAD_MB * MB));
    const post = async (body: Buffer) => {
      const res = await fetch(`${ctx.api.baseUrl}/api/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${t.apiKey}`, "content-type": "image/png" },
        body,
      });
      if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    };
    await post(randomPng(MB)); // warm-up
    const api = ctx.api.child.pid;
    const resettable = await resetPeakRss(api);
    const before = await rssMb(api);
    const latencies: number[] = [];
    const { value: wall, cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), () =>
      timed(() =>
        Promise.all(
          images.map(async (img) => {
            const { ms } = await timed(() => post(img));
            latencies.push(ms);
          }),
        ),
      ),
    );
    const peak = resettable ? await peakRssMb(api) : Number.NaN;
    const mbPerS = (clients * UPLOAD_MB) / (wall.ms / 1000);
    progress(`${clients} uploads in ${round(wall.ms)} ms; API RSS ${round(before)} MB before, peak ${round(peak)} MB`);
    const row = latencyRow("upload", `one ${UPLOAD_MB} MB image per client, ${clients} clients at once`, latencies);
    row.throughput = { value: round(mbPerS), unit: "MB/s" };
    row.extra = `API RSS ${round(before)} MB before, peak ${round(peak)} MB (+${round(peak - before)} MB for ${clients * UPLOAD_MB} MB in flight); ${describeCpu(cpu, clients, "upload", "API+worker")}`;
    return {
      name: "upload",
      rows: [row],
      metrics: {
        clients,
        uploadMb: UPLOAD_MB,
        mbPerS: round(mbPerS),
        medianMs: round(median(latencies)),
        apiRssBeforeMb: round(before),
        apiPeakRssMb: round(peak),
        ...cpuMetrics(cpu, clients),
      },
      samples: { upload: latencies },
      notes: resettable ? [] : ["upload: the API's peak RSS could not be measured (VmHWM not resettable)"],
    };
  },
};
