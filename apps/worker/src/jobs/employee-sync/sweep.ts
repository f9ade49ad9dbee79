import { deleteOldSyncRequests, expireSessions, requeueStalledSyncItems } from "@insp/core";
import type { PeriodicTask } from "../../deps.ts";

/** Sync items whose job was lost get it back; old requests are removed. */
export const employeeSyncSweeps: PeriodicTask[] = [
  {
    name: "employee-sync requeue",
    everyMs: () => 10_000,
    run: async (deps) => {
      const n = await requeueStalledSyncItems(deps.db, deps.queues, deps.env.SYNC_REQUEUE_AFTER_SECONDS * 1000);
      if (n) deps.logger.warn({ requeued: n }, "requeued stalled employee sync items");
    },
  },
  {
    name: "employee-sync request retention",
    everyMs: () => 60 * 60_000,
    run: async (deps) => void (await deleteOldSyncRequests(deps.db, deps.env.SYNC_RETENTION_DAYS)),
  },
  {
    name: "sync sessions expiry and retention",
    everyMs: () => 5 * 60_000,
    run: async (deps) => {
      const { expired } = await expireSessions(deps.db, deps.env.SYNC_RETENTION_DAYS);
      if (expired) deps.logger.info({ expired }, "sync sessions expired");
    },
  },
];
