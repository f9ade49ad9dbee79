import { announceOverdueActions } from "@insp/core";
import type { PeriodicTask } from "../../deps.ts";

/**
 * Corrective actions whose dueAt passed while OPEN or IN_PROGRESS: action.overdue, once per action
 * (until dueAt changes or it is reopened), every ACTION_OVERDUE_SWEEP_SECONDS. Every replica runs it;
 * the statement claims rows with skip locked, so each action is announced by exactly one.
 */
export const actionSweeps: PeriodicTask[] = [
  {
    name: "overdue actions",
    everyMs: (deps) => deps.env.ACTION_OVERDUE_SWEEP_SECONDS * 1000,
    run: async (deps) => {
      const BATCH = 500;
      let announced = 0;
      for (;;) {
        const n = await announceOverdueActions(deps.db, BATCH);
        announced += n;
        if (n < BATCH) break;
      }
      if (announced) deps.logger.info({ announced }, "announced overdue corrective actions");
    },
  },
];
