import { z } from "zod";

/**
 * The one contract for queues: queue names, a zod schema per job
 * payload and the retry policy per queue. One job kind per queue; the job name is
 * the queue name. Payloads carry ids and small values only: no media, no passwords,
 * no tokens (Redis stores job data in plain text).
 */
export const jobSchemas = {
  /** One employee of a sync request; the input lives in sync_request_items. */
  "employee-sync": z.object({
    organizationId: z.uuid(),
    requestId: z.uuid(),
    itemId: z.uuid(),
  }),
  /** One pending row of mail_outbox. */
  mail: z.object({
    organizationId: z.uuid(),
    outboxId: z.uuid(),
  }),
  /** One validated inspection import; answers and media references live in Postgres. */
  "inspection-import": z.object({
    organizationId: z.uuid(),
    importId: z.uuid(),
  }),
  /** One PDF report of an inspection (a row of inspection_reports, cached by the inspection's revision and what it prints). */
  "inspection-report": z.object({
    organizationId: z.uuid(),
    reportId: z.uuid(),
  }),
  /** One CSV or XLSX export of inspections (a row of inspection_exports); a re-run starts the file over. */
  "inspection-export": z.object({
    organizationId: z.uuid(),
    exportId: z.uuid(),
  }),
  /** One attempt of a webhook delivery: `attempt` is how many attempts were made before this one. */
  webhook: z.object({
    organizationId: z.uuid(),
    deliveryId: z.uuid(),
    attempt: z.number().int().min(0),
  }),
} as const;

export type JobName = keyof typeof jobSchemas;
export type JobData<N extends JobName> = z.output<(typeof jobSchemas)[N]>;
export const JOB_NAMES = Object.keys(jobSchemas) as JobName[];

export interface QueuePolicy {
  attempts: number;
  backoff: { type: "exponential"; delay: number };
  /** Completed jobs kept (seconds, number); `count: 0` removes a job as it completes. */
  removeOnComplete: { age?: number; count: number };
  removeOnFail: { age: number; count: number };
}

/** Retries are a policy per queue. Business failures throw UnrecoverableError and skip them. */
export const queuePolicies: Record<JobName, QueuePolicy> = {
  // A completed employee job is removed at once: its outcome is in Postgres, and keeping it cost
  // Redis a sorted-set entry, a hash update and a trim on every job (bench/README.md, issue 24).
  // A late duplicate of a removed job (its id is free again) finds its item done and skips it.
  "employee-sync": { attempts: 5, backoff: { type: "exponential", delay: 200 }, removeOnComplete: { count: 0 }, removeOnFail: { age: 86_400, count: 50_000 } },
  mail: {
    attempts: 8,
    backoff: { type: "exponential", delay: 2_000 },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 7 * 86_400, count: 10_000 },
  },
  "inspection-import": {
    attempts: 3,
    backoff: { type: "exponential", delay: 500 },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400, count: 10_000 },
  },
  // A report renders in seconds; a failure past these attempts is recorded on its row (FAILED) and answered as such.
  "inspection-report": {
    attempts: 3,
    backoff: { type: "exponential", delay: 1_000 },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400, count: 10_000 },
  },
  // An export that fails past these attempts is recorded FAILED on its row; a worker that dies mid-export is
  // stalled-job recovery's (the job runs again and starts the file over).
  "inspection-export": {
    attempts: 3,
    backoff: { type: "exponential", delay: 2_000 },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 86_400, count: 10_000 },
  },
  // The delivery schedule lives in Postgres (webhook_deliveries.next_attempt_at, one delayed job per attempt);
  // BullMQ's own retries only cover a job that could not run (database outage, another copy sending it).
  webhook: {
    attempts: 10,
    backoff: { type: "exponential", delay: 1_000 },
    removeOnComplete: { age: 3600, count: 10_000 },
    removeOnFail: { age: 7 * 86_400, count: 10_000 },
  },
};

export function parseJobData<N extends JobName>(name: N, data: unknown): JobData<N> {
  return jobSchemas[name].parse(data) as JobData<N>;
}

/**
 * Custom BullMQ job ids may not contain ':' (it separates Redis key parts) nor be all digits
 * (BullMQ's own ids are); adding a job whose id still exists is silently ignored.
 */
export function jobId(...parts: string[]): string {
  const id = parts.join("_");
  if (id.includes(":") || /^\d+$/.test(id)) throw new Error(`invalid job id ${id}`);
  return id;
}
