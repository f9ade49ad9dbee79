import { QueueEvents } from "bullmq";
import type { RedisClient } from "./connection.ts";
import type { JobName } from "./contract.ts";
import { signalChannel } from "./countdown.ts";

/**
 * Waits for jobs, woken by one of two sources and routed to waiters by id: one shared
 * QueueEvents listener per queue (its jobs' completions, by job id), or the prefix's signal
 * channel (a countdown of many jobs reaching zero, by the countdown's id: countdown.ts).
 * BullMQ's job.waitUntilFinished() per job adds listeners per job, can hang without a time
 * limit and rejects on failure: not for 500 jobs. Wake-ups can be missed, so the caller's
 * `isDone` check (reading Postgres, the source of truth) also runs on a poll interval, and
 * every wait has a deadline.
 */
export class JobWaiter {
  private readonly ready = new Map<JobName, Promise<QueueEvents>>();
  private signals: Promise<RedisClient> | null = null;
  /** Job id -> wake-up callbacks of every request waiting on it (a replayed request may share a job). */
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Sleeping waits, woken at once by stopWaiting(). */
  private readonly sleepers = new Set<() => void>();
  /**
   * Jobs that reported while nobody waited for them, with when: a job can finish before the
   * request that enqueued it starts waiting (measured: the first of 500 jobs, 15 ms before
   * registration, left that request waiting for its next poll; bench/README.md).
   */
  private readonly unclaimed = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly connectionFactory: () => RedisClient,
    private readonly prefix: string,
  ) {}

  /** Subscribe before enqueueing so no event is missed. Concurrent callers share one listener. */
  prepare(name: JobName): Promise<void> {
    let ready = this.ready.get(name);
    if (!ready) {
      const qe = new QueueEvents(name, { connection: this.connectionFactory(), prefix: this.prefix, autorun: true });
      const wake = ({ jobId }: { jobId: string }) => this.wake(jobId);
      qe.on("completed", wake);
      qe.on("failed", wake);
      ready = qe.waitUntilReady().then(() => qe);
      this.ready.set(name, ready);
      // A failed subscription is retried by the next prepare().
      ready.catch(() => this.ready.delete(name));
    }
    return ready.then(() => undefined);
  }

  /**
   * Subscribe to the signal channel before starting a countdown, so its signal is not missed.
   * One subscriber connection per process, shared; a failed subscription is retried by the next call.
   */
  prepareSignals(): Promise<void> {
    if (!this.signals) {
      const sub = this.connectionFactory();
      sub.on("message", (_channel: string, id: string) => this.wake(id));
      this.signals = sub.subscribe(signalChannel(this.prefix)).then(() => sub);
      this.signals.catch(() => {
        this.signals = null;
        sub.disconnect();
      });
    }
    return this.signals.then(() => undefined);
  }

  private wake(id: string): void {
    const waiters = this.waiting.get(id);
    if (waiters) waiters.forEach((fn) => fn());
    else this.remember(id);
  }

  /**
   * Resolves true when `isDone()` says so, false when `timeoutMs` passes first (or
   * the process is shutting down). `isDone` runs when every listed id (a job's, or a
   * countdown's) has reported, and every `pollMs` regardless.
   */
  async wait(opts: { jobIds: string[]; timeoutMs: number; pollMs?: number; isDone: () => Promise<boolean> }): Promise<boolean> {
    const pending = new Set(opts.jobIds.filter((id) => !this.unclaimed.delete(id)));
    let wakeUp: (() => void) | undefined;
    let allReported = pending.size === 0;
    const callbacks = new Map<string, () => void>();
    for (const id of opts.jobIds) {
      const fn = () => {
        if (pending.delete(id) && pending.size === 0) {
          allReported = true;
          wakeUp?.();
        }
      };
      callbacks.set(id, fn);
      let set = this.waiting.get(id);
      if (!set) this.waiting.set(id, (set = new Set()));
      set.add(fn);
    }
    const deadline = Date.now() + opts.timeoutMs;
    try {
      for (;;) {
        const reportedBeforeCheck = allReported;
        if (await opts.isDone()) return true;
        const left = deadline - Date.now();
        if (left <= 0 || this.stopped) return false;
        // The last job reported while isDone was running: nothing would wake the sleep below,
        // so check again now rather than a poll interval later (bench/README.md, employee sync).
        if (allReported && !reportedBeforeCheck) continue;
        // Sleep until the last listed job reports, the poll interval passes or shutdown begins.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(t);
            this.sleepers.delete(done);
            resolve();
          };
          const t = setTimeout(done, Math.min(left, opts.pollMs ?? 1_000));
          wakeUp = pending.size === 0 ? undefined : done;
          this.sleepers.add(done);
        });
        wakeUp = undefined;
      }
    } finally {
      for (const [id, fn] of callbacks) {
        const set = this.waiting.get(id);
        set?.delete(fn);
        if (set?.size === 0) this.waiting.delete(id);
      }
    }
  }

  /** Keeps reports nobody waited for a minute (at most 10,000; other requests' and other replicas' jobs also land here). */
  private remember(jobId: string): void {
    const now = Date.now();
    this.unclaimed.set(jobId, now);
    for (const [id, at] of this.unclaimed) {
      if (this.unclaimed.size <= 10_000 && at > now - 60_000) break;
      this.unclaimed.delete(id);
    }
  }

  /**
   * Shutdown: every wait returns at once (after one last `isDone`), so requests answer
   * with their status URL instead of being cut off; the jobs go on in the workers.
   */
  stopWaiting(): void {
    this.stopped = true;
    for (const wake of this.sleepers) wake();
    this.sleepers.clear();
  }

  async close(): Promise<void> {
    this.stopWaiting();
    const all = await Promise.allSettled(this.ready.values());
    await Promise.all(all.flatMap((r) => (r.status === "fulfilled" ? [r.value.close()] : [])));
    const sub = await this.signals?.catch(() => null);
    sub?.disconnect();
  }
}
