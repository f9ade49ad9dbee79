import { Queue, type JobsOptions, type QueueOptions } from "bullmq";
import type { RedisClient } from "./connection.ts";
import { parseJobData, queuePolicies, type JobData, type JobName } from "./contract.ts";
import { takeTurns } from "./fair.ts";

/**
 * Producer side: one Queue per name, sharing one connection; payloads parsed before they are
 * added, and every job given its organization's turn (fair.ts), so no organization's backlog holds
 * another's jobs back.
 */
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
    const [priority] = await takeTurns(this.connection, this.queue(name), data.organizationId, 1);
    return this.queue(name).add(name, data, { ...opts, priority });
  }

  /** One round trip for many jobs (addBulk). */
  async enqueueBulk<N extends JobName>(name: N, items: { data: JobData<N>; opts?: JobsOptions }[]) {
    if (items.length === 0) return [];
    const queue = this.queue(name);
    const jobs = items.map((i) => ({ name, data: parseJobData(name, i.data), opts: i.opts ?? {} }));
    // One script per organization in the batch (usually one), its jobs' turns in batch order.
    const byOrg = new Map<string, typeof jobs>();
    for (const j of jobs) {
      const own = byOrg.get(j.data.organizationId);
      if (own) own.push(j);
      else byOrg.set(j.data.organizationId, [j]);
    }
    await Promise.all(
      [...byOrg].map(async ([org, own]) => {
        const turns = await takeTurns(this.connection, queue, org, own.length);
        own.forEach((j, k) => (j.opts = { ...j.opts, priority: turns[k]! }));
      }),
    );
    return queue.addBulk(jobs);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }
}
