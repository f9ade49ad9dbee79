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
 * a job that is gone (Redis flushed or restarted empty, the process died between commit and
 * enqueue) is added again under its deterministic id; a failed one (e.g. failed for stalling
 * before our code ran) is retried; a live job (waiting, delayed, active) is left alone.
 * Each chunk costs one pipelined round trip of O(1) commands (EXISTS on the job's hash,
 * ZSCORE in the failed set; BullMQ's getJobState scans the whole wait list per call) and one
 * addBulk, so thousands of items come back in a second. Returns how many were requeued.
 */
export async function requeueMissing<N extends JobName>(queues: Queues, name: N, items: { jobId: string; data: JobData<N> }[], chunk = 1000): Promise<number> {
  const queue = queues.queue(name);
  const client = queues.connection;
  let requeued = 0;
  for (let i = 0; i < items.length; i += chunk) {
    const part = items.slice(i, i + chunk);
    const pipe = client.pipeline();
    for (const item of part) pipe.exists(queue.toKey(item.jobId)).zscore(queue.keys.failed!, item.jobId);
    const replies = (await pipe.exec()) ?? [];
    const reply = (k: number) => {
      const [err, value] = replies[k] ?? [new Error("no reply")];
      if (err) throw err;
      return value;
    };
    const missing = part.filter((_, k) => reply(2 * k) === 0);
    const failed = part.filter((_, k) => reply(2 * k) === 1 && reply(2 * k + 1) !== null);
    await queues.enqueueBulk(
      name,
      missing.map((item) => ({ data: item.data, opts: { jobId: item.jobId } })),
    );
    for (const item of failed) await (await queue.getJob(item.jobId))?.retry();
    requeued += missing.length + failed.length;
  }
  return requeued;
}

/**
 * requeueMissing over every row `fetchPage` returns, `page` at a time: `fetchPage(after)`
 * gives the next rows ordered by id after `after` (null: from the start).
 */
export async function requeuePaged<N extends JobName, R extends { id: string }>(
  queues: Queues,
  name: N,
  fetchPage: (after: string | null) => Promise<R[]>,
  toItem: (row: R) => { jobId: string; data: JobData<N> },
  page: number,
): Promise<number> {
  let requeued = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await fetchPage(after);
    requeued += await requeueMissing(queues, name, rows.map(toItem));
    if (rows.length < page) return requeued;
    after = rows[rows.length - 1]!.id;
  }
}
