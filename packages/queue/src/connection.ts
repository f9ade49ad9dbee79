import { createHash } from "node:crypto";
import { Cluster, Redis, type ClusterNode, type RedisOptions } from "ioredis";

/** One Redis server, or a Redis Cluster (REDIS_CLUSTER_NODES): BullMQ and our own commands take either. */
export type RedisClient = Redis | Cluster;

/** The Redis part of an app's settings (config's baseEnvShape). */
export interface RedisSettings {
  REDIS_URL: string;
  /** Seed nodes of a Redis Cluster, `host:port`; unset or empty: REDIS_URL names one server. */
  REDIS_CLUSTER_NODES?: readonly string[] | undefined;
}

/**
 * Workers and QueueEvents block on Redis and need `maxRetriesPerRequest: null`
 * (BullMQ docs, "going to production"). Producers keep a bound so an API request
 * fails fast when Redis is down instead of hanging. With cluster seed nodes, a Cluster client
 * (it follows MOVED and ASK redirects and learns the slot map) with REDIS_URL's user, password
 * and TLS (rediss:) for every node.
 */
export function createRedis(s: RedisSettings, role: "worker" | "producer" | "client", extra: RedisOptions = {}): RedisClient {
  const options: RedisOptions = { maxRetriesPerRequest: role === "worker" ? null : 3, enableReadyCheck: true, lazyConnect: false, ...extra };
  if (!s.REDIS_CLUSTER_NODES?.length) return new Redis(s.REDIS_URL, options);
  const url = new URL(s.REDIS_URL);
  const auth: RedisOptions = {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === "rediss:" ? { tls: {} } : {}),
  };
  const nodes: ClusterNode[] = s.REDIS_CLUSTER_NODES.map((n) => {
    const at = n.lastIndexOf(":");
    return { host: n.slice(0, at).replace(/^\[|\]$/g, ""), port: Number(n.slice(at + 1)) };
  });
  const cluster = new Cluster(nodes, { redisOptions: { ...options, ...auth }, enableReadyCheck: true, lazyConnect: options.lazyConnect ?? false });
  // A Cluster client queues commands for as long as no node answers (maxRetriesPerRequest bounds
  // each node's connection, not the cluster's): producers would hang every request that touches
  // Redis, /healthz included behind the rate limiters. Once the cluster has been reached, they
  // fail at once instead, as with a single server that is down; workers keep waiting.
  if (role !== "worker") cluster.once("ready", () => (cluster.options.enableOfflineQueue = false));
  return cluster;
}

/**
 * Loads a Lua script on the server, or on every master of a cluster (a script loaded on one node
 * is unknown to the others), and answers its SHA1, computed here. Best effort: a node that is
 * down, or not known yet while the cluster starts, answers NOSCRIPT to EVALSHA later and the
 * caller loads the script again; the answer is never a rejection that a caller would keep.
 */
export async function loadScript(redis: RedisClient, script: string): Promise<string> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  await Promise.allSettled(nodes.map((node) => node.call("SCRIPT", "LOAD", script)));
  return createHash("sha1").update(script).digest("hex");
}

/**
 * Redis could not be reached: ioredis gave up on a command (MaxRetriesPerRequestError),
 * the connection is closed, the socket failed, or no node of a cluster answers. The work can
 * be tried again later.
 */
export function isRedisUnavailable(err: unknown): boolean {
  if (!err || typeof err !== "object") return false;
  const e = err as { name?: unknown; message?: unknown; code?: unknown };
  if (e.name === "MaxRetriesPerRequestError" || e.name === "ClusterAllFailedError") return true;
  return typeof e.message === "string" && /^(Connection is closed|Stream isn't writeable|Cluster isn't ready)/.test(e.message);
}
