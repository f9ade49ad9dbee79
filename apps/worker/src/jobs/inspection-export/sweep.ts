import { deleteExpiredExports, requeueStalledExports } from "@insp/core";
import type { PeriodicTask } from "../../deps.ts";

/** Exports whose job was lost are queued again; finished exports past EXPORT_RETENTION_HOURS are deleted (file, then row). */
export const inspectionExportSweeps: PeriodicTask[] = [
  {
    name: "inspection-export requeue",
    everyMs: () => 15_000,
    run: async (deps) => {
      const n = await requeueStalledExports(deps.db, deps.queues, 60_000);
      if (n) deps.logger.warn({ requeued: n }, "requeued stalled inspection exports");
    },
  },
  {
    name: "inspection-export retention",
    everyMs: () => 5 * 60_000,
    run: async (deps) => {
      const n = await deleteExpiredExports(deps.db, deps.media, deps.env.EXPORT_RETENTION_HOURS);
      if (n) deps.logger.info({ deleted: n }, "deleted expired inspection exports");
    },
  },
];
