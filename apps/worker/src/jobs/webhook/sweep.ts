import { completeFinishedSyncRequests, dispatchWebhookEvents, requeueStaleDeliveries } from "@insp/core";
import { enqueueDeliveries } from "@insp/queue";
import type { PeriodicTask } from "../../deps.ts";

/**
 * The change log to webhook deliveries (every 250 ms; one query when nothing changed), sync
 * requests nobody waits for marked completed (so sync.request.completed is sent), and
 * deliveries due for more than 30 s whose job was lost get it back.
 */
export const webhookSweeps: PeriodicTask[] = [
  {
    name: "webhook dispatch",
    everyMs: () => 250,
    run: async (deps) => {
      for (;;) {
        const { deliveries, events } = await dispatchWebhookEvents(deps.db);
        // Committed before enqueueing: a lost enqueue is found by the requeue sweep.
        if (deliveries.length) await enqueueDeliveries(deps.queues, deliveries);
        if (events < 500) return;
      }
    },
  },
  {
    name: "sync request completion",
    everyMs: () => 1_000,
    run: async (deps) => void (await completeFinishedSyncRequests(deps.db)),
  },
  {
    name: "webhook requeue",
    everyMs: (deps) => deps.env.OUTBOX_SWEEP_SECONDS * 1000,
    run: async (deps) => {
      const n = await requeueStaleDeliveries(deps.db, deps.queues, 30);
      if (n) deps.logger.warn({ requeued: n }, "requeued webhook deliveries whose job was lost");
    },
  },
];
