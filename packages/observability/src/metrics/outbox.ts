import { Gauge, type Registry } from "prom-client";
import type { DbHandle } from "@insp/db";
import { Sampled } from "./sampled.ts";

/**
 * insp_outbox_lag_seconds{outbox}: how long the oldest piece of outgoing work has been waiting,
 * over every organisation: a pending mail_outbox row (since it was written) and a pending
 * webhook delivery that is due (since it became due; one scheduled for later is not late).
 * 0 when nothing waits. One statement reading two minimums through their indexes
 * (mail_outbox_status_idx, webhook_deliveries_pending_idx), never a row's contents, sampled
 * at most every `everyMs` and bounded by `timeoutMs`.
 */
export function outboxLagGauge(registry: Registry, sql: DbHandle["sql"], opts: { everyMs?: number; timeoutMs?: number } = {}) {
  const sampled = new Sampled<{ mail: number; webhooks: number }>(
    async () => {
      const [row] = await sql<{ mail: number | null; webhooks: number | null }[]>`
        select extract(epoch from now() - (select min(created_at) from mail_outbox where status = 'pending'))::float8 as mail,
               extract(epoch from now() - (select min(next_attempt_at) from webhook_deliveries where status = 'pending' and next_attempt_at <= now()))::float8 as webhooks`;
      return { mail: Math.max(0, row?.mail ?? 0), webhooks: Math.max(0, row?.webhooks ?? 0) };
    },
    opts.everyMs ?? 5_000,
    opts.timeoutMs ?? 2_000,
  );
  new Gauge({
    name: "insp_outbox_lag_seconds",
    help: "Age of the oldest pending mail (outbox=mail) or due webhook delivery (outbox=webhooks), all organisations; 0 when none waits",
    labelNames: ["outbox"],
    registers: [registry],
    async collect() {
      const lag = await sampled.get();
      if (!lag) return;
      this.set({ outbox: "mail" }, lag.mail);
      this.set({ outbox: "webhooks" }, lag.webhooks);
    },
  });
  return sampled;
}
