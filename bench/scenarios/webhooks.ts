import { describeCpu, measureCpu } from "../lib/cpu.ts";
import { employeeBatch, postSync } from "../lib/fixtures.ts";
import type { Scenario } from "../lib/scenario.ts";
import { cpuMetrics } from "../lib/scenario.ts";
import { median, p95, round } from "../lib/stats.ts";
import { newTag } from "../lib/sync.ts";
import { startBenchReceiver } from "../lib/webhook-receiver.ts";

/**
 * Webhook delivery: an endpoint subscribed to employee.created on a receiver in the bench
 * process (it verifies every signature), then `--rounds` syncs of `--batch` new employees, one
 * after another. Deliveries/s from the first delivery to the last; lag from each change (its
 * transaction's start, the body's timestamp) to its arrival; every event exactly once.
 */
export const webhooks: Scenario = {
  name: "webhooks",
  describe: "employee.created webhooks for every synced employee to a local receiver that verifies each signature: deliveries/s, lag, exactly once",
  async run(ctx, progress) {
    const { batch } = ctx.opts;
    const rounds = Math.min(ctx.opts.rounds, 8);
    const receiver = await startBenchReceiver();
    try {
      const created = await ctx.http.post("/api/webhooks", { url: receiver.url, events: ["employee.created"] }, { auth: { bearer: ctx.tenant.apiKey } });
      if (created.status !== 201) throw new Error(`webhook endpoint: ${created.status} ${created.text}`);
      receiver.setSecret(created.body.secret);
      const token = await ctx.syncToken();
      const total = rounds * batch;
      let lastAnswer = 0;
      const { cpu } = await measureCpu(ctx.db.sql, ctx.servicePids(), async () => {
        for (let r = 0; r < rounds; r++) {
          const tag = newTag("hook");
          await postSync(ctx.http, token, { syncBatchId: tag, employees: employeeBatch(ctx.tenant, tag, batch) });
          progress(`round ${r + 1}/${rounds}: ${receiver.arrivals.length} deliveries so far`);
        }
        lastAnswer = Date.now();
        const deadline = Date.now() + 180_000;
        while (new Set(receiver.arrivals.map((a) => a.id)).size < total) {
          if (Date.now() > deadline) throw new Error(`webhooks: ${receiver.arrivals.length} of ${total} delivered after 180 s`);
          await new Promise((res) => setTimeout(res, 20));
        }
      });
      const a = receiver.arrivals;
      const distinct = new Set(a.map((x) => x.id)).size;
      const spanMs = Math.max(1, a[a.length - 1]!.at - a[0]!.at);
      const perS = round(((a.length - 1) * 1000) / spanMs);
      const lags = a.map((x) => x.at - x.changedAt);
      return {
        name: "webhooks",
        rows: [
          {
            scenario: "webhooks",
            what: `employee.created to a local receiver (signature verified), ${rounds} syncs of ${batch}; lag from change to arrival`,
            n: a.length,
            medianMs: round(median(lags)),
            p95Ms: round(p95(lags)),
            throughput: { value: perS, unit: "deliveries/s" },
            extra: `last delivery ${Math.max(0, a[a.length - 1]!.at - lastAnswer)} ms after the last sync answered; ${distinct} events for ${total} employees, ${a.length - distinct} received twice, ${receiver.rejected()} signatures refused; ${describeCpu(cpu, total, "employee with its webhook", "API+worker")}`,
          },
        ],
        metrics: {
          drainAfterLastAnswerMs: Math.max(0, a[a.length - 1]!.at - lastAnswer),
          deliveriesPerS: perS,
          lagMedianMs: round(median(lags)),
          lagP95Ms: round(p95(lags)),
          events: distinct,
          expected: total,
          duplicates: a.length - distinct,
          rejected: receiver.rejected(),
          ...cpuMetrics(cpu, total),
        },
        samples: { lag: lags },
        notes:
          distinct !== total || receiver.rejected() ? [`webhooks: ${distinct} distinct events of ${total}, ${receiver.rejected()} refused signatures`] : [],
      };
    } finally {
      await receiver.close();
    }
  },
};
