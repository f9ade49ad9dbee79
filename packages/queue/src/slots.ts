import type { RedisClient } from "./connection.ts";

/**
 * Slots: at most `cap` holders of one key at a time, across every worker process (a sorted set
 * of holders by when they took their slot). A holder that never gives its slot back (its process
 * died) loses it once it is older than `staleMs`, so nothing has to be cleaned up by hand.
 * Used to keep one organization's webhook receiver, hanging until its timeout, from taking every
 * delivery slot of the workers (docs/integrations.md, Webhooks).
 */

const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[4]))
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

type WithSlots = RedisClient & { insptakeslot(key: string, now: number, holder: string, cap: number, staleMs: number): Promise<number> };

/** Takes a slot of `key` for `holder` (true), or none is free (false). Taking one already held is true. */
export async function takeSlot(connection: RedisClient, key: string, holder: string, cap: number, staleMs: number): Promise<boolean> {
  const r = connection as WithSlots;
  if (typeof r.insptakeslot !== "function") r.defineCommand("insptakeslot", { numberOfKeys: 1, lua: TAKE });
  return (await r.insptakeslot(key, Date.now(), holder, cap, staleMs)) === 1;
}

/** Gives `holder`'s slot of `key` back. */
export async function releaseSlot(connection: RedisClient, key: string, holder: string): Promise<void> {
  await connection.zrem(key, holder);
}
