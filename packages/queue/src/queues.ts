import { Queue, type JobsOptions, type QueueOptions } from "bullmq";
import type { RedisClient } from "./connection.ts";
import { parseJobData, queuePolicies, type JobData, type JobName } from "./contract.ts";

/** Producer side: one Queue per name, sharing one connection; payloads parsed before they are added. */
export class Queues {
  private readonly queues = new Map<JobName, Queue>();

  constructor(
    readonly connection: RedisClient,
    readonly prefix: string,
    /** BullMQ telemetry (tracing): each job carries its producer's span context. */
    private readonly telemetry?: QueueOptions["telemetry"],
  ) {}

  queue(name: JobName): Queue {
    let q = this.queues.get(name);
    if (!q) {
      const p = queuePolicies[name];
      q = new Queue(name, {
        connection: this.connection,
        prefix: this.prefix,
        ...(this.telemetry ? { telemetry: this.telemetry } : {}),
        defaultJobOptions: { attempts: p.attempts, backoff: p.backoff, removeOnComplete: p.removeOnComplete, removeOnFail: p.removeOnFail },
      });
      this.queues.set(name, q);
    }
    return q;
  }

  async enqueue<N extends JobName>(name: N, payload: JobData<N>, opts: JobsOptions = {}) {
    const data = parseJobData(name, payload);
    return this.queue(name).add(name, data, opts);
  }

  /** One round trip for many jobs (addBulk). */
  async enqueueBulk<N extends JobName>(name: N, items: { data: JobData<N>; opts?: JobsOptions }[]) {
    if (items.length === 0) return [];
    return this.queue(name).addBulk(items.map((i) => ({ name, data: parseJobData(name, i.data), opts: i.opts ?? {} })));
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

}
