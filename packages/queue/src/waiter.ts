import { QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import type { JobName } from "./contract.ts";

/**
 * Waits for many jobs with one shared QueueEvents listener per queue, routing
 * completions to waiters by job id (PITFALLS.md: no waitUntilFinished per job).
 * Events are only a wake-up: they can be missed, so the caller's `isDone` check
 * (reading Postgres, the source of truth) also runs on a poll interval, and every
 * wait has a deadline.
 */
export class JobWaiter {
  private readonly events = new Map<JobName, QueueEvents>();
  private readonly waiting = new Map<string, () => void>();

  constructor(
    private readonly connectionFactory: () => Redis,
    private readonly prefix: string,
  ) {}

  private async listen(name: JobName): Promise<void> {
    if (this.events.has(name)) return;
    const qe = new QueueEvents(name, { connection: this.connectionFactory(), prefix: this.prefix, autorun: true });
    this.events.set(name, qe);
    const wake = ({ jobId }: { jobId: string }) => this.waiting.get(jobId)?.();
    qe.on("completed", wake);
    qe.on("failed", wake);
    await qe.waitUntilReady();
  }

  /** Subscribe before enqueueing so no event is missed. */
  async prepare(name: JobName): Promise<void> {
    await this.listen(name);
  }

  /**
   * Resolves true when `isDone()` says so, false when `timeoutMs` passes first.
   * `isDone` runs when every listed job has reported, and every `pollMs` regardless.
   */
  async wait(opts: { jobIds: string[]; timeoutMs: number; pollMs?: number; isDone: () => Promise<boolean>; onProgress?: (reported: number) => void }): Promise<boolean> {
    const pending = new Set(opts.jobIds);
    let wakeUp: (() => void) | undefined;
    for (const id of opts.jobIds) {
      this.waiting.set(id, () => {
        if (pending.delete(id)) {
          opts.onProgress?.(opts.jobIds.length - pending.size);
          if (pending.size === 0) wakeUp?.();
        }
      });
    }
    const deadline = Date.now() + opts.timeoutMs;
    try {
      for (;;) {
        if (await opts.isDone()) return true;
        const left = deadline - Date.now();
        if (left <= 0) return false;
        // Sleep until the last listed job reports or the poll interval passes.
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(left, opts.pollMs ?? 1_000));
          wakeUp = pending.size === 0 ? undefined : () => (clearTimeout(t), resolve());
        });
        wakeUp = undefined;
      }
    } finally {
      for (const id of opts.jobIds) this.waiting.delete(id);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.events.values()].map((e) => e.close()));
  }
}
