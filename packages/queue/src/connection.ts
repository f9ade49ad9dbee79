import { Redis, type RedisOptions } from "ioredis";

/**
 * Workers and QueueEvents block on Redis and need `maxRetriesPerRequest: null`
 * (BullMQ docs, "going to production"). Producers keep a bound so an API request
 * fails fast when Redis is down instead of hanging.
 */
export function createRedis(url: string, role: "worker" | "producer" | "client", extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: role === "worker" ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
    ...extra,
  });
}
