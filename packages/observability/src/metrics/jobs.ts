import { Counter, Histogram, type Registry } from "prom-client";
import type { Worker } from "@insp/queue";

export interface JobMetrics {
  /** Observe this worker's jobs: wait on start, run time on completion or failure. */
  watch(worker: Worker): void;
  /** insp_sync_employees_total{outcome}: one per employee-sync item run (rate() = employees per second). */
  syncEmployees: Counter<"outcome">;
  /** insp_job_timeouts_total{queue}: attempts failed for running past their kind's timeout. */
  timeouts: Counter<"queue">;
}

/**
 * Job timings of this worker process's own jobs, per queue. Wait is measured for a job's first
 * attempt only, from when it became due (created, plus its delay) to when this worker started
 * it: BullMQ does not record when a retried job became due again. Run time is from start to
 * completion or failure (a job put back during a database outage is neither, and not counted).
 */
export function jobMetrics(registry: Registry): JobMetrics {
  const wait = new Histogram({
    name: "insp_job_wait_seconds",
    help: "Time a job waited in its queue before this worker started it (first attempts)",
    labelNames: ["queue"],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
    registers: [registry],
  });
  const run = new Histogram({
    name: "insp_job_run_seconds",
    help: "Time this worker spent running a job, by queue and outcome (completed, failed)",
    labelNames: ["queue", "outcome"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const syncEmployees = new Counter({
    name: "insp_sync_employees_total",
    help: "Employee-sync items run by this worker, by outcome (done, skipped, rule-failed, gave-up, error: retried later)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const timeouts = new Counter({
    name: "insp_job_timeouts_total",
    help: "Job attempts this worker failed for running past their kind's timeout (*_JOB_TIMEOUT_SECONDS), by queue",
    labelNames: ["queue"],
    registers: [registry],
  });
  const seconds = (ms: number) => Math.max(0, ms) / 1000;
  return {
    syncEmployees,
    timeouts,
    watch(worker) {
      const queue = worker.name;
      worker.on("active", (job) => {
        if ((job.attemptsStarted ?? 1) <= 1 && job.processedOn) wait.observe({ queue }, seconds(job.processedOn - job.timestamp - (job.delay ?? 0)));
      });
      worker.on("completed", (job) => job.processedOn && run.observe({ queue, outcome: "completed" }, seconds(Date.now() - job.processedOn)));
      worker.on("failed", (job) => job?.processedOn && run.observe({ queue, outcome: "failed" }, seconds(Date.now() - job.processedOn)));
    },
  };
}
