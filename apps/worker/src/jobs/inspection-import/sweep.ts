import { requeueStalledImports } from "@insp/core";
import type { PeriodicTask } from "../../deps.ts";

/** Imports whose job was lost are queued again. */
export const inspectionImportSweeps: PeriodicTask[] = [
  {
    name: "inspection-import requeue",
    everyMs: () => 15_000,
    run: async (deps) => {
      const n = await requeueStalledImports(deps.db, deps.queues, 60_000);
      if (n) deps.logger.warn({ requeued: n }, "requeued stalled inspection imports");
    },
  },
];
