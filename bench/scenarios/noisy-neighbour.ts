import net from "node:net";
import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { employeeBatch, postSync } from "../lib/fixtures.ts";
import type { Scenario } from "../lib/scenario.ts";
import { cpuMetrics, latencyRow } from "../lib/scenario.ts";
import { median, p95, round } from "../lib/stats.ts";
import { newTag } from "../lib/sync.ts";
import { startBenchReceiver } from "../lib/webhook-receiver.ts";

const SMALL = 10;
const ROUNDS = 10;

/** The 99th percentile (nearest rank). */
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.99 * xs.length) - 1)]!;

/** A receiver that takes every connection and never answers: each attempt ends at WEBHOOK_TIMEOUT_SECONDS. */
async function hangingReceiver(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on("error", () => {});
    s.on("close", () => sockets.delete(s));
    s.resume();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hang`,
    connections: () => connections,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/**
 * One organization (A) floods the service while another (B) works as usual: B's 10-employee
 * synchronous syncs, one at a time, first on an idle service, then while A has 15,000 employees
 * queued (30 asynchronous batches of 500) and A's webhook receiver hangs until the delivery
 * timeout on each of A's employee.created deliveries. Figures: B's sync p50/p99 idle and under
 * the flood, against the bound max(3 × idle p50, 2 s); B's webhook lag (change to arrival) idle
 * and under the flood; A's own throughput over its 15,000 (the fairness must not cost it more than
 * 10 %: compare with the same scenario on the code before, bench/README.md).
 */
export const noisyNeighbour: Scenario = {
  name: "noisy-neighbour",
  describe:
    "B's 10-employee syncs and webhooks idle and while A has 15,000 employees queued and a receiver that hangs: B's p50/p99, B's webhook lag, A's throughput",
  freshDatabase: true,
  async run(ctx, progress) {
    const [a, b] = [ctx.tenant, await ctx.newTenant()];
    const [hanging, receiver] = [await hangingReceiver(), await startBenchReceiver()];
    try {
      const register = async (apiKey: string, url: string) => {
        const res = await ctx.http.post("/api/webhooks", { url, events: ["employee.created"] }, { auth: { bearer: apiKey } });
        if (res.status !== 201) throw new Error(`webhook endpoint: ${res.status} ${res.text}`);
        return res.body.secret as string;
      };
      await register(a.apiKey, hanging.url);
      receiver.setSecret(await register(b.apiKey, receiver.url));
      const [tokenA, tokenB] = [await ctx.syncToken(a), await ctx.syncToken(b)];
      const small = async () => {
        const tag = newTag("nb");
        const started = performance.now();
        await postSync(ctx.http, tokenB, { syncBatchId: tag, employees: employeeBatch(b, tag, SMALL) });
        return performance.now() - started;
      };
      const arrivedFor = async (n: number) => {
        const deadline = Date.now() + 120_000;
        while (receiver.arrivals.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        return receiver.arrivals.length;
      };
      const lagsOf = (from: number, to: number) => receiver.arrivals.slice(from, to).map((x) => x.at - x.changedAt);

      await small(); // warm-up
      await arrivedFor(SMALL);
      await ctx.beforeRounds();
      const idle: number[] = [];
      for (let r = 0; r < ROUNDS; r++) idle.push(await small());
      await arrivedFor(SMALL * (ROUNDS + 1));
      const idleLags = lagsOf(SMALL, SMALL * (ROUNDS + 1));
      progress(`B idle: p50 ${round(median(idle))} ms`);

      const pendingOfA = async () =>
        Number((await ctx.db.sql`select count(*)::int as n from sync_request_items where organization_id = ${a.organization.id} and status = 'pending'`)[0]!.n);
      const floodBatches = 30;
      const flooded: number[] = [];
      let aDoneMs = 0;
      let aAcceptedMs = 0;
      let leftWhenBDone = 0;
      const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), async () => {
        const floodStart = performance.now();
        for (let i = 0; i < floodBatches; i++) {
          const tag = newTag("flood");
          const res = await ctx.http.post(
            "/api/v1/sync/employees",
            { syncBatchId: tag, employees: employeeBatch(a, tag, 500) },
            { auth: { bearer: tokenA }, headers: { prefer: "respond-async" } },
          );
          if (res.status !== 202) throw new Error(`flood batch: ${res.status} ${res.text.slice(0, 300)}`);
        }
        aAcceptedMs = performance.now() - floodStart;
        progress(`A: ${floodBatches * 500} employees accepted in ${round(aAcceptedMs)} ms; ${await pendingOfA()} pending`);
        for (let r = 0; r < ROUNDS; r++) {
          flooded.push(await small());
          await new Promise((res) => setTimeout(res, 300));
        }
        leftWhenBDone = await pendingOfA();
        progress(`B under the flood: p50 ${round(median(flooded))} ms, p99 ${round(p99(flooded))} ms; A still has ${leftWhenBDone} pending`);
        const deadline = Date.now() + 600_000;
        while ((await pendingOfA()) > 0) {
          if (Date.now() > deadline) throw new Error("noisy-neighbour: A's 15,000 not done within 10 minutes");
          await new Promise((res) => setTimeout(res, 200));
        }
        aDoneMs = performance.now() - floodStart;
      });
      const delivered = await arrivedFor(SMALL * (ROUNDS * 2 + 1));
      const floodLags = lagsOf(SMALL * (ROUNDS + 1), SMALL * (ROUNDS * 2 + 1));
      const aPerS = round((floodBatches * 500 * 1000) / aDoneMs);
      const bound = Math.max(3 * median(idle), 2000);
      const notes: string[] = [];
      if (p99(flooded) > bound)
        notes.push(`noisy-neighbour: B's p99 under the flood ${round(p99(flooded))} ms is over the bound max(3 × idle p50, 2 s) = ${round(bound)} ms`);
      if (delivered < SMALL * (ROUNDS * 2 + 1)) notes.push(`noisy-neighbour: ${delivered} of B's ${SMALL * (ROUNDS * 2 + 1)} webhooks arrived within 120 s`);
      return {
        name: "noisy-neighbour",
        rows: [
          latencyRow("noisy-neighbour", `B: sync of ${SMALL}, idle service`, idle, { items: SMALL, unit: "employees/s" }, `p99 ${round(p99(idle))} ms`),
          latencyRow(
            "noisy-neighbour",
            `B: sync of ${SMALL} while A has ${floodBatches * 500} queued and a hanging receiver`,
            flooded,
            { items: SMALL, unit: "employees/s" },
            `p99 ${round(p99(flooded))} ms (bound ${round(bound)} ms); A had ${leftWhenBDone} still pending when B's last sync answered`,
          ),
          latencyRow("noisy-neighbour", "B: webhook lag, idle", idleLags, undefined, `p99 ${round(p99(idleLags))} ms`),
          latencyRow(
            "noisy-neighbour",
            "B: webhook lag under A's flood",
            floodLags,
            undefined,
            `p99 ${floodLags.length ? round(p99(floodLags)) : "-"} ms; ${floodLags.length} of ${SMALL * ROUNDS} arrived; A's receiver took ${hanging.connections()} connections`,
          ),
          {
            scenario: "noisy-neighbour",
            what: `A: ${floodBatches * 500} employees in ${floodBatches} async batches, from the first post to the last done`,
            n: 1,
            medianMs: round(aDoneMs),
            p95Ms: round(aDoneMs),
            throughput: { value: aPerS, unit: "employees/s" },
            extra: `accepted in ${round(aAcceptedMs)} ms; ${describeCpu(cpu, floodBatches * 500, "employee", "API+worker")}`,
          },
        ],
        metrics: {
          bIdleP50Ms: round(median(idle)),
          bIdleP99Ms: round(p99(idle)),
          bFloodP50Ms: round(median(flooded)),
          bFloodP99Ms: round(p99(flooded)),
          boundMs: round(bound),
          bWebhookIdleP50Ms: round(median(idleLags)),
          bWebhookIdleP95Ms: round(p95(idleLags)),
          bWebhookFloodP50Ms: floodLags.length ? round(median(floodLags)) : -1,
          bWebhookFloodP99Ms: floodLags.length ? round(p99(floodLags)) : -1,
          bWebhooksUnderFlood: floodLags.length,
          aLeftWhenBDone: leftWhenBDone,
          aEmployeesPerS: aPerS,
          ...cpuMetrics(cpu, floodBatches * 500),
        },
        samples: { idle, flooded, idleLags, floodLags },
        notes,
      };
    } finally {
      await Promise.all([hanging.close(), receiver.close()]);
    }
  },
};
