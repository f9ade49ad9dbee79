import { expireImportIdempotencyKeys, requeueStalledImports } from "@insp/core";
import type { PeriodicTask } from "../../periodic.ts";

/** Imports whose job was lost are queued again; expired Idempotency-Keys of imports are removed. */
export const inspectionImportSweeps: PeriodicTask[] = [
  {
    name: "inspection-import requeue",
    everyMs: () => 60_000,
    run: async (deps) => {
      const n = await requeueStalledImports(deps.db, deps.queues, 2 * 60_000);
      if (n) deps.logger.warn({ requeued: n }, "requeued stalled inspection imports");
    },
  },
  {
    name: "inspection idempotency keys expiry",
    everyMs: () => 15 * 60_000,
    run: async (deps) => void (await expireImportIdempotencyKeys(deps.db)),
  },
];
