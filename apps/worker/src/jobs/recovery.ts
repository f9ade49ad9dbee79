import { requeueStaleDeliveries, requeueStaleMail, requeueStalledImports, requeueStalledSyncItems } from "@insp/core";
import { claimQueueEpoch } from "@insp/queue";
import type { PeriodicTask } from "../deps.ts";

/**
 * Redis lost its data (queue epoch.ts): every pending sync item, import, mail and due webhook delivery gets its job
 * back now, whatever its age. The regular sweeps would find them too, but only after their
 * age thresholds; this brings thousands back within seconds of Redis returning.
 */
export const redisLossWatch: PeriodicTask[] = [
  {
    name: "redis data loss watch",
    everyMs: () => 2_000,
    run: async (deps) => {
      if (!(await claimQueueEpoch(deps.queues.connection, deps.queues.prefix))) return;
      const started = Date.now();
      const [items, imports, mails, webhooks] = [
        await requeueStalledSyncItems(deps.db, deps.queues, 0),
        await requeueStalledImports(deps.db, deps.queues, 0),
        await requeueStaleMail(deps.db, deps.queues, 0),
        await requeueStaleDeliveries(deps.db, deps.queues, 0),
      ];
      if (items || imports || mails || webhooks)
        deps.logger.warn({ items, imports, mails, webhooks, ms: Date.now() - started }, "queue marker missing (Redis lost its data): pending work requeued");
    },
  },
];
