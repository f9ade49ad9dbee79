import type { RedisClient } from "./connection.ts";
import { signalChannel } from "./countdown.ts";

/**
 * Waits for the work of an API request: an employee sync's items, an inspection import, a
 * report. Every such wait follows one countdown (countdown.ts): the request starts it before it
 * enqueues, the workers tick it, and its last tick publishes its id on the prefix's signal
 * channel, which this process reads on one shared subscriber connection and routes to the waits
 * for that id. BullMQ's job.waitUntilFinished() adds listeners per job, can hang without a time
 * limit and rejects on failure; its QueueEvents carries every event of every job of a queue to
 * every API process. A signal is only a wake-up and can be missed (a worker that died between
 * commit and tick, a countdown that expired), so the caller's `isDone` check (reading Postgres,
 * the source of truth) also runs on a poll interval, and every wait has a deadline.
 */
export class JobWaiter {
  private subscriber: Promise<RedisClient> | null = null;
  /** Countdown id -> wake-up callbacks of every request waiting on it (a replayed request may share one). */
  private readonly waiting = new Map<string, Set<() => void>>();
  /** Sleeping waits, woken at once by stopWaiting(). */
  private readonly sleepers = new Set<() => void>();
  private stopped = false;

  constructor(
    private readonly connectionFactory: () => RedisClient,
    private readonly prefix: string,
  ) {}

  /**
   * Subscribes to the signal channel; call it before starting a countdown, so that the countdown's
   * signal reaches this process. One subscriber connection per process, shared by every wait; a
   * failed subscription is retried by the next call.
   */
  prepare(): Promise<void> {
    if (!this.subscriber) {
      const sub = this.connectionFactory();
      sub.on("message", (_channel: string, id: string) => this.waiting.get(id)?.forEach((wake) => wake()));
      this.subscriber = sub.subscribe(signalChannel(this.prefix)).then(() => sub);
      this.subscriber.catch(() => {
        this.subscriber = null;
        sub.disconnect();
      });
    }
    return this.subscriber.then(() => undefined);
  }

  /**
   * Resolves true when `isDone()` says so, false when `timeoutMs` passes first (or the process is
   * shutting down). `isDone` runs at once, when the countdown `id` signals, and every `pollMs`.
   *
   * A signal that reaches this process before the wait registers (a job that finished before its
   * request began to wait) is not kept for it: workers tick only after their work has committed,
   * so the check that opens every wait, made after registering, already reads that work in
   * Postgres. The signal itself would add nothing.
   */
  async wait(opts: { id: string; timeoutMs: number; pollMs?: number; isDone: () => Promise<boolean> }): Promise<boolean> {
    let signalled = false;
    let wakeUp: (() => void) | undefined;
    const onSignal = () => {
      signalled = true;
      wakeUp?.();
    };
    let registered = this.waiting.get(opts.id);
    if (!registered) this.waiting.set(opts.id, (registered = new Set()));
    registered.add(onSignal);
    const deadline = Date.now() + opts.timeoutMs;
    try {
      for (;;) {
        signalled = false;
        if (await opts.isDone()) return true;
        const left = deadline - Date.now();
        if (left <= 0 || this.stopped) return false;
        // The signal came while isDone was running, which may have read Postgres before the last
        // commit: nothing would wake the sleep below, so check again now rather than a poll
        // interval later (bench/README.md, employee sync).
        if (signalled) continue;
        // Sleep until the signal, the poll interval or shutdown.
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(t);
            this.sleepers.delete(done);
            wakeUp = undefined;
            resolve();
          };
          const t = setTimeout(done, Math.min(left, opts.pollMs ?? 1_000));
          wakeUp = done;
          this.sleepers.add(done);
        });
      }
    } finally {
      registered.delete(onSignal);
      if (registered.size === 0 && this.waiting.get(opts.id) === registered) this.waiting.delete(opts.id);
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
    const sub = await this.subscriber?.catch(() => null);
    sub?.disconnect();
  }
}
