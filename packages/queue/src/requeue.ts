import type { Job } from "bullmq";
import type { JobData, JobName } from "./contract.ts";
import type { Queues } from "./queues.ts";

/**
 * The attempt running now is the queue policy's last (`attempts`): a failure now is final,
 * so processors record it in Postgres instead of leaving it to a retry that will not come.
 */
export const isLastAttempt = (job: Pick<Job, "attemptsMade" | "opts">): boolean => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * Gives work that Postgres still calls pending its job back, for the sweeps of every queue:
 * a job that is gone (Redis flushed, the process died between commit and enqueue) is added
 * again under its deterministic id; a failed one (e.g. failed for stalling before our code
 * ran) is retried; a live job (waiting, delayed, active) is left alone. Returns how many were
 * requeued.
 */
export async function requeueMissing<N extends JobName>(queues: Queues, name: N, items: { jobId: string; data: JobData<N> }[]): Promise<number> {
  const queue = queues.queue(name);
  let requeued = 0;
  for (const item of items) {
    const job = await queue.getJob(item.jobId);
    if (!job) {
      await queues.enqueue(name, item.data, { jobId: item.jobId });
      requeued++;
    } else if (await job.isFailed()) {
      await job.retry();
      requeued++;
    }
  }
  return requeued;
}
