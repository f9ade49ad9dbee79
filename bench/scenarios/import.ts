import { Redis } from "ioredis";
import type { BenchContext } from "../lib/context.ts";
import { answerFor, publishedTemplate, randomPng } from "../lib/fixtures.ts";
import { peakRssMb, resetPeakRss, rssMb } from "../lib/rss.ts";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import type { Scenario, ScenarioResult } from "../lib/scenario.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { median, p95, round, timed } from "../lib/stats.ts";

const MB = 1024 * 1024;

/** Samples VmRSS every 50 ms: a fallback peak where VmHWM cannot be reset. */
function rssSampler(pids: number[]) {
  const peaks = pids.map(() => 0);
  const timer = setInterval(() => {
    pids.forEach((pid, i) => void rssMb(pid).then((mb) => (peaks[i] = Math.max(peaks[i]!, Number.isFinite(mb) ? mb : 0))));
  }, 50);
  return { stop: () => (clearInterval(timer), peaks) };
}

/**
 * The largest inspection-import job the workers saw, read back from Redis: proof that job
 * data carries ids and no base64 (completed jobs are kept by removeOnComplete).
 */
async function largestJobData(ctx: BenchContext): Promise<{ jobs: number; maxDataBytes: number }> {
  const redis = new Redis(ctx.opts.redisUrl, { maxRetriesPerRequest: 3 });
  try {
    let cursor = "0";
    let jobs = 0;
    let maxDataBytes = 0;
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${ctx.queuePrefix}:inspection-import:*`, "COUNT", 1000);
      cursor = next;
      for (const key of keys) {
        if ((await redis.type(key)) !== "hash") continue;
        const len = await redis.hstrlen(key, "data");
        if (len === 0) continue;
        jobs++;
        maxDataBytes = Math.max(maxDataBytes, len);
      }
    } while (cursor !== "0");
    return { jobs, maxDataBytes };
  } finally {
    redis.disconnect();
  }
}

export const importScenario: Scenario = {
  name: "import",
  describe: "POST /api/inspections with N answers and M images of K MB, C clients in parallel; peak RSS of API and worker",
  async run(ctx, progress): Promise<ScenarioResult> {
    const { importClients: clients, imports: rounds, answers, images, imageMb } = ctx.opts;
    const t = await ctx.newTenant();
    const tpl = await publishedTemplate(ctx.http, t, answers);
    const bodyOf = (withImages: boolean) =>
      JSON.stringify({
        templateId: tpl.id,
        conductedBy: t.users.inspector.id,
        siteId: t.sites[0]!.id,
        answers: tpl.questions.map((q, i) => ({
          ...answerFor(q, i),
          ...(withImages && i < images ? { media: [randomPng(imageMb * MB).toString("base64")] } : {}),
        })),
      });
    const post = async (body: string) => {
      const res = await ctx.http.request("POST", "/api/inspections", {
        auth: { bearer: t.apiKey },
        rawBody: body,
        headers: { "content-type": "application/json" },
      });
      if (res.status !== 201) throw new Error(`import answered ${res.status}: ${res.text.slice(0, 500)}`);
    };

    await post(bodyOf(true)); // warm-up, untimed
    progress(`generating ${clients * rounds} bodies with ${images} random ${imageMb} MB PNGs each`);
    // Built before the clock starts; each image is unique so nothing is deduplicated.
    const bodies = Array.from({ length: clients }, () => Array.from({ length: rounds }, () => bodyOf(true)));
    const bodyMb = round(Buffer.byteLength(bodies[0]![0]!) / MB, 2);
    const mediaBytes = clients * rounds * images * imageMb * MB;

    const pids = ctx.servicePids();
    const resettable = (await Promise.all(pids.map(resetPeakRss))).every(Boolean);
    const baseline = await Promise.all(pids.map(rssMb));
    const sampler = rssSampler(pids);
    progress(`${clients} clients x ${rounds} imports of ${bodyMb} MB JSON`);
    const latencies: number[] = [];
    const client = async (mine: string[], c: number) => {
      for (let r = 0; r < mine.length; r++) {
        const { ms } = await timed(() => post(mine[r]!));
        mine[r] = ""; // let the body go
        latencies.push(ms);
        progress(`client ${c + 1} import ${r + 1}/${rounds}: ${round(ms, 0)} ms`);
      }
    };
    const { value: wall, cpu } = await measureCpu(ctx.db.sql, pids, () => timed(() => Promise.all(bodies.map(client))));
    const sampled = sampler.stop();
    const peaks = resettable ? await Promise.all(pids.map(peakRssMb)) : sampled;
    ctx.assertAlive();
    const apiPeak = round(peaks[0]!);
    const workerPeak = round(Math.max(...peaks.slice(1)));
    const redis = await largestJobData(ctx);
    const total = clients * rounds;
    const perS = (total * 1000) / wall.ms;
    const mbPerS = mediaBytes / MB / (wall.ms / 1000);
    progress(
      `${total} imports in ${round(wall.ms / 1000)} s; peak RSS API ${apiPeak} MB, worker ${workerPeak} MB; largest job data ${redis.maxDataBytes} bytes`,
    );

    const row = latencyRow("import", `inspection, ${answers} answers + ${images} x ${imageMb} MB images (${bodyMb} MB JSON), ${clients} clients`, latencies);
    row.throughput = { value: round(perS, 2), unit: "inspections/s" };
    row.extra = `${round(mbPerS)} MB/s media; peak RSS API ${apiPeak} MB, worker ${workerPeak} MB; largest job data in Redis ${redis.maxDataBytes} B; ${describeCpu(cpu, total, "inspection", "API+worker")}`;
    return {
      name: "import",
      rows: [row],
      metrics: {
        imports: total,
        clients,
        wallS: round(wall.ms / 1000, 2),
        medianMs: round(median(latencies)),
        p95Ms: round(p95(latencies)),
        inspectionsPerS: round(perS, 2),
        mediaMbPerS: round(mbPerS, 1),
        bodyMb,
        apiPeakRssMb: apiPeak,
        workerPeakRssMb: workerPeak,
        apiBaselineRssMb: round(baseline[0]!),
        redisImportJobs: redis.jobs,
        redisMaxJobDataBytes: redis.maxDataBytes,
        ...cpuMetrics(cpu, total),
      },
      samples: { import: latencies },
      notes: resettable ? [] : ["peak RSS sampled every 50 ms (VmHWM could not be reset): short spikes may be missed"],
    };
  },
};
