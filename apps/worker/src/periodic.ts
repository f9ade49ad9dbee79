import type { WorkerDeps } from "./deps.ts";
import { employeeSyncSweeps } from "./jobs/employee-sync/sweep.ts";
import { inspectionImportSweeps } from "./jobs/inspection-import/sweep.ts";
import { mailSweeps } from "./jobs/mail/sweep.ts";

/**
 * Recurring housekeeping run by every worker replica (each task is idempotent).
 * Features add their tasks here: e.g. the mail outbox sweep, expired idempotency keys.
 */
export type PeriodicTask = { name: string; everyMs: (deps: WorkerDeps) => number; run: (deps: WorkerDeps) => Promise<void> };

export const periodicTasks: PeriodicTask[] = [...inspectionImportSweeps, ...employeeSyncSweeps, ...mailSweeps];

export function startPeriodicTasks(deps: WorkerDeps): () => void {
  const timers = periodicTasks.map((task) => {
    let running = false;
    return setInterval(() => {
      if (running) return;
      running = true;
      task
        .run(deps)
        .catch((err) => deps.logger.error({ task: task.name, err }, "periodic task failed"))
        .finally(() => (running = false));
    }, task.everyMs(deps));
  });
  return () => timers.forEach(clearInterval);
}
