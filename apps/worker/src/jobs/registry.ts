import type { Processor } from "bullmq";
import { JOB_NAMES, type JobName } from "@insp/queue";
import type { ProcessorFactory, WorkerDeps } from "../deps.ts";
import { employeeSyncProcessor } from "./employee-sync/processor.ts";
import { inspectionExportProcessor } from "./inspection-export/processor.ts";
import { inspectionImportProcessor } from "./inspection-import/processor.ts";
import { inspectionReportProcessor } from "./inspection-report/processor.ts";
import { mailProcessor } from "./mail/processor.ts";
import { waitOutDatabaseOutages } from "./outage.ts";
import { jobTimeouts, withTimeout } from "./timeout.ts";
import { webhookProcessor } from "./webhook/processor.ts";

/**
 * Job name -> processor. A Record over every JobName makes a missing handler a type
 * error; `buildProcessors` checks it again at start-up, so a queue without a handler
 * (or a handler for no queue) stops the worker at once instead of leaving jobs waiting.
 */
const registry: Record<JobName, ProcessorFactory> = {
  "employee-sync": employeeSyncProcessor,
  mail: mailProcessor,
  "inspection-import": inspectionImportProcessor,
  "inspection-export": inspectionExportProcessor,
  "inspection-report": inspectionReportProcessor,
  webhook: webhookProcessor,
};

/** Every queue's processor, bounded by its kind's timeout (timeout.ts) and waiting out database outages (outage.ts). */
export function buildProcessors(deps: WorkerDeps): Map<JobName, Processor> {
  const missing = JOB_NAMES.filter((n) => typeof registry[n] !== "function");
  const unknown = Object.keys(registry).filter((n) => !JOB_NAMES.includes(n as JobName));
  if (missing.length || unknown.length) {
    throw new Error(`Job registry mismatch: missing handlers [${missing.join(", ")}], unknown handlers [${unknown.join(", ")}]`);
  }
  const patienceMs = deps.env.DB_OUTAGE_RETRY_SECONDS * 1000;
  const timeouts = jobTimeouts(deps.env);
  const bounded = (n: JobName) => withTimeout(n, registry[n](deps), timeouts[n], deps.logger, () => deps.metrics.jobs.timeouts.inc({ queue: n }));
  return new Map(JOB_NAMES.map((n) => [n, waitOutDatabaseOutages(n, bounded(n), patienceMs, deps.logger)]));
}
