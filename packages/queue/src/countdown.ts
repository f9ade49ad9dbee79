import type { RedisClient } from "./connection.ts";
import type { Queues } from "./queues.ts";

/**
 * Countdowns: how a waiting API request learns that its work is done, the one way for every job a
 * request waits for. The API sets a countdown to the number of jobs before it enqueues them (an
 * employee sync: one per employee; an inspection import or a report: 1); each worker ticks it once
 * a job's outcome has committed for good (done, or failed with no attempt left); the tick that
 * takes it to zero publishes its id on the prefix's signal channel, and JobWaiter wakes whoever
 * waits for that id. One small script per job, instead of BullMQ's QueueEvents, which carries
 * every event of every job of the queue (added, waiting, active, completed) to every API process
 * that waits (bench/README.md, issue 24). A signal is only a wake-up: a lost tick (a worker that
 * died between commit and tick) or a countdown that expired leaves the waiter to its poll of
 * Postgres.
 */

/** Keys expire after a day: a countdown nobody finishes (its request waited on by nobody any more) does not stay. */
const TTL_SECONDS = 86_400;

const TICK = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local left = redis.call('DECR', KEYS[1])
if left <= 0 then
  redis.call('DEL', KEYS[1])
  redis.call('PUBLISH', ARGV[1], ARGV[2])
end
return left`;

type WithTick = RedisClient & { insptick(key: string, channel: string, id: string): Promise<number> };

/** The channel countdown signals are published on, per queue prefix (one Redis can serve several deployments). */
export const signalChannel = (prefix: string) => `${prefix}:signals`;
const countdownKey = (prefix: string, id: string) => `${prefix}:countdown:${id}`;

/** The signal id of a sync request's items (what the API waits for). */
export const syncSignal = (requestId: string) => `sync_${requestId}`;
/** The signal id of an inspection import's one job. */
export const importSignal = (importId: string) => `import_${importId}`;
/**
 * The signal id of a report's job. Concurrent requests for one report share its row and job; each
 * sets the countdown to 1 again, and the job's one tick wakes all of them.
 */
export const reportSignal = (reportId: string) => `report_${reportId}`;

/** Starts the countdown of `id` at `count` (before the jobs it counts are enqueued). */
export async function startCountdown(queues: Pick<Queues, "connection" | "prefix">, id: string, count: number): Promise<void> {
  await queues.connection.set(countdownKey(queues.prefix, id), count, "EX", TTL_SECONDS);
}

/**
 * One of `id`'s jobs is done: takes one off its countdown and, when that was the last, signals
 * it. Answers how many are left (-1: no countdown, nobody waits for it).
 */
export async function tickCountdown(queues: Pick<Queues, "connection" | "prefix">, id: string): Promise<number> {
  const r = queues.connection as WithTick;
  // ioredis sends the script by its SHA1 and loads it on the node that does not know it yet.
  if (typeof r.insptick !== "function") r.defineCommand("insptick", { numberOfKeys: 1, lua: TICK });
  return r.insptick(countdownKey(queues.prefix, id), signalChannel(queues.prefix), id);
}
