import type { RedisClient } from "./connection.ts";
import type { Queues } from "./queues.ts";

/**
 * Countdowns: how a waiting request learns that the last of its jobs is done without reading
 * every job's events. The API sets a countdown to the number of items before it enqueues them;
 * each worker ticks it once an item's transaction has committed; the tick that takes it to zero
 * publishes its key on the prefix's signal channel, and JobWaiter wakes whoever waits for that
 * key. One small script per job, instead of BullMQ's QueueEvents, which carries every event of
 * every job of the queue (added, waiting, active, completed) to every API process that waits
 * (bench/README.md, issue 24). A signal is only a wake-up: a lost tick (a worker that died
 * between commit and tick) or a countdown that expired leaves the waiter to its poll of Postgres.
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
