import { sweepOrphanMedia } from "@insp/core";
import type { PeriodicTask } from "../../deps.ts";

/** Media nothing references, unused for MEDIA_ORPHAN_GRACE_SECONDS, are deleted (rows, then bytes). */
export const mediaSweeps: PeriodicTask[] = [
  {
    name: "orphan media",
    everyMs: (deps) => deps.env.MEDIA_SWEEP_SECONDS * 1000,
    run: async (deps) => {
      const { deleted } = await sweepOrphanMedia(deps.db, deps.media, deps.env.MEDIA_ORPHAN_GRACE_SECONDS);
      if (deleted) deps.logger.info({ deleted }, "deleted orphan media");
    },
  },
];
