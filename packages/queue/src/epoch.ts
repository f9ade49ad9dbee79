import type { RedisClient } from "./connection.ts";

/**
 * A marker key each worker re-creates when it is missing. Its absence means Redis lost its
 * data (restarted without persistence, flushed, failed over to an empty replica) and with it
 * every queued job: the caller then gives all pending work its job back at once instead of
 * waiting for the age-based sweeps. True when the marker had to be created (also on the very
 * first start, when requeueing finds nothing or only work that was waiting anyway).
 */
export async function claimQueueEpoch(redis: RedisClient, prefix: string): Promise<boolean> {
  return (await redis.set(`${prefix}:epoch`, new Date().toISOString(), "NX")) === "OK";
}
