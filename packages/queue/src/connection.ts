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

/**
 * Redis could not be reached: ioredis gave up on a command (MaxRetriesPerRequestError),
 * the connection is closed, or the socket failed. The work can be tried again later.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { name?: unknown; message?: unknown; code?: unknown };
  if (e.name === "MaxRetriesPerRequestError") return true;
  return typeof e.message === "string" && /^(Connection is closed|Stream isn't writeable)/.test(e.message);
}
