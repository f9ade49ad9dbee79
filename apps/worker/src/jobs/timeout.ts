import type { Job, Processor } from "bullmq";
import type { JobName } from "@insp/queue";
import type { Logger } from "@insp/core";
import type { WorkerEnv } from "../env.ts";

/** Added to WEBHOOK_TIMEOUT_SECONDS when WEBHOOK_JOB_TIMEOUT_SECONDS is 0: reading the delivery and recording the attempt. */
const WEBHOOK_JOB_MARGIN_SECONDS = 15;

/** Each job kind's timeout in seconds and the setting that gives it (named in the error). */
export function jobTimeouts(env: WorkerEnv): Record<JobName, { seconds: number; setting: string }> {
  return {
    "employee-sync": { seconds: env.SYNC_JOB_TIMEOUT_SECONDS, setting: "SYNC_JOB_TIMEOUT_SECONDS" },
    mail: { seconds: env.MAIL_JOB_TIMEOUT_SECONDS, setting: "MAIL_JOB_TIMEOUT_SECONDS" },
    "inspection-import": { seconds: env.IMPORT_JOB_TIMEOUT_SECONDS, setting: "IMPORT_JOB_TIMEOUT_SECONDS" },
    "inspection-report": { seconds: env.REPORT_JOB_TIMEOUT_SECONDS, setting: "REPORT_JOB_TIMEOUT_SECONDS" },
    "inspection-export": { seconds: env.EXPORT_JOB_TIMEOUT_SECONDS, setting: "EXPORT_JOB_TIMEOUT_SECONDS" },
    webhook: { seconds: env.WEBHOOK_JOB_TIMEOUT_SECONDS || env.WEBHOOK_TIMEOUT_SECONDS + WEBHOOK_JOB_MARGIN_SECONDS, setting: "WEBHOOK_JOB_TIMEOUT_SECONDS" },
  };
}

/** Why an attempt failed: it ran past its kind's timeout. Retried per the queue's policy like any failure. */
export class JobTimeoutError extends Error {
  constructor(queue: string, seconds: number, setting: string) {
    super(`${queue} job ran longer than its timeout of ${seconds} s (${setting}); stopped, to be retried per the queue's policy`);
    this.name = "JobTimeoutError";
  }
}

/**
 * BullMQ's open-source worker has no job timeout: a processor that never settles (a receiver that
 * never answers, a statement waiting for a lock) keeps its slot, and its lock renewed, forever.
 * This bounds every run: past `seconds` the attempt fails with a JobTimeoutError, counted by
 * `onTimeout`, and the slot takes the next job. The processor gets an AbortSignal that aborts
 * then (and when BullMQ cancels the job), so work that can stop does: a webhook's request, the
 * sync item's statements, an export's next page, a report's next step. Work that cannot stop
 * (an SMTP exchange, an import's transaction) ends by its own bounds; its late outcome is logged.
 * The wrapper declares BullMQ's third parameter, so BullMQ hands it a signal of its own.
 */
export function withTimeout(
  queue: JobName,
  processor: Processor,
  limit: { seconds: number; setting: string },
  logger: Logger,
  onTimeout: () => void,
): Processor {
  return async (job: Job, token?: string, cancelled?: AbortSignal) => {
    const stop = new AbortController();
    const signal = cancelled ? AbortSignal.any([cancelled, stop.signal]) : stop.signal;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new JobTimeoutError(queue, limit.seconds, limit.setting);
        stop.abort(err);
        reject(err);
      }, limit.seconds * 1000);
    });
    const run = processor(job, token, signal);
    try {
      return await Promise.race([run, expired]);
    } catch (err) {
      if (err instanceof JobTimeoutError) {
        onTimeout();
        logger.error({ queue, jobId: job.id, attempt: job.attemptsMade + 1, timeoutSeconds: limit.seconds }, "job timed out: attempt failed, its slot freed");
        run.then(
          () => logger.warn({ queue, jobId: job.id }, "a timed-out job's work finished after all"),
          (late: unknown) => logger.info({ queue, jobId: job.id, err: late }, "a timed-out job's work stopped"),
        );
      }
      throw err;
    } finally {
      clearTimeout(timer);
    }
  };
}
