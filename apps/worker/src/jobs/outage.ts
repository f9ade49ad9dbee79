import { DelayedError, type Job, type Processor } from "bullmq";
import { isConnectionError } from "@insp/db";
import type { Logger } from "@insp/core";

/** Backoff while Postgres is away: 250 ms, doubling, at most 2 s, with jitter (a job is back within about 2 s of the database). */
const outageDelayMs = (waitsSoFar: number) => Math.min(2_000, 250 * 2 ** Math.min(waitsSoFar, 10)) * (0.75 + Math.random() / 2);

/**
 * Wraps a processor so that a job failing because Postgres could not be reached (a restart,
 * a failover, a dropped connection) goes back to the delayed set without using one of its
 * attempts: an outage of any length up to `patienceMs` (counted from the job's creation)
 * only delays the work. Other failures, and outage failures after that, follow the queue's
 * retry policy. BullMQ's `moveToDelayed` from inside the processor, then `DelayedError`, is
 * its documented way to do this; the attempts skipped so far are attemptsStarted minus
 * attemptsMade.
 */
export function waitOutDatabaseOutages(queue: string, processor: Processor, patienceMs: number, logger: Logger): Processor {
  // Three parameters: BullMQ hands a processor declaring its third one an AbortSignal (timeout.ts passes it on).
  return async (job: Job, token?: string, signal?: AbortSignal) => {
    try {
      return await processor(job, token, signal);
    } catch (err) {
      if (!token || !isConnectionError(err) || Date.now() - job.timestamp > patienceMs) throw err;
      const waits = Math.max(0, (job.attemptsStarted ?? 1) - 1 - job.attemptsMade);
      const delay = Math.round(outageDelayMs(waits));
      logger.warn({ queue, jobId: job.id, delayMs: delay, err }, "database unreachable: job delayed without using an attempt");
      await job.moveToDelayed(Date.now() + delay, token);
      throw new DelayedError();
    }
  };
}
