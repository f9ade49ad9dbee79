import { deleteOldAudit, expireKeys } from "@insp/core";
import { analyzeGrownTables } from "@insp/db";
import type { PeriodicTask, WorkerDeps } from "./deps.ts";
import { actionSweeps } from "./jobs/actions/sweep.ts";
import { employeeSyncSweeps } from "./jobs/employee-sync/sweep.ts";
import { inspectionExportSweeps } from "./jobs/inspection-export/sweep.ts";
import { inspectionImportSweeps } from "./jobs/inspection-import/sweep.ts";
import { mediaSweeps } from "./jobs/media/sweep.ts";
import { mailSweeps } from "./jobs/mail/sweep.ts";
import { redisLossWatch } from "./jobs/recovery.ts";
import { scheduleSweeps } from "./jobs/schedules/sweep.ts";
import { webhookSweeps } from "./jobs/webhook/sweep.ts";

// Recurring housekeeping (PeriodicTask, deps.ts): features add their tasks here.

/**
 * Tables that grew a lot since their last ANALYZE are analyzed, so prepared statements get plans
 * for their real size (a first large sync on a new database otherwise keeps plans made on empty
 * tables: bench/README.md). Autovacuum does the same, later; this check runs every second (one
 * catalog query; Postgres updates the counters it reads about once a second).
 */
const statisticsWatch: PeriodicTask[] = [
  {
    name: "statistics of grown tables",
    everyMs: () => 1_000,
    run: async (deps) => {
      const analyzed = await analyzeGrownTables(deps.dbHandle.sql);
      if (analyzed.length) deps.logger.info({ tables: analyzed }, "analyzed tables that grew");
    },
  },
];

/** Audit entries past AUDIT_RETENTION_DAYS, hourly. */
const auditRetention: PeriodicTask[] = [
  { name: "audit retention", everyMs: () => 60 * 60_000, run: async (deps) => void (await deleteOldAudit(deps.db, deps.env.AUDIT_RETENTION_DAYS)) },
];

/** Idempotency-Keys of every endpoint past their 24 hours (core/idempotency.ts). */
const idempotencySweeps: PeriodicTask[] = [
  { name: "idempotency keys expiry", everyMs: () => 15 * 60_000, run: async (deps) => void (await expireKeys(deps.db)) },
];

const periodicTasks: PeriodicTask[] = [
  ...redisLossWatch,
  ...statisticsWatch,
  ...inspectionImportSweeps,
  ...inspectionExportSweeps,
  ...employeeSyncSweeps,
  ...mailSweeps,
  ...webhookSweeps,
  ...actionSweeps,
  ...scheduleSweeps,
  ...mediaSweeps,
  ...idempotencySweeps,
  ...auditRetention,
];

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
