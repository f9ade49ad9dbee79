import { requeueStaleMail } from "@insp/core";
import type { PeriodicTask } from "../../deps.ts";

/** Pending outbox rows older than a minute whose job was lost get a job again. */
export const mailSweeps: PeriodicTask[] = [
  {
    name: "mail outbox sweep",
    everyMs: (deps) => deps.env.OUTBOX_SWEEP_SECONDS * 1000,
    run: async (deps) => {
      const n = await requeueStaleMail(deps.db, deps.queues, 60);
      if (n) deps.logger.warn({ requeued: n }, "requeued mails whose job was lost");
    },
  },
];
