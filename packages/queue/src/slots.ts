import type { RedisClient } from "./connection.ts";

/**
 * Slots: at most `cap` holders of one key at a time, across every worker process (a sorted set
 * of holders by when they took their slot). A holder that never gives its slot back (its process
 * died) loses it once it is older than `staleMs`, so nothing has to be cleaned up by hand.
 * Used to keep one organization's webhook receiver, hanging until its timeout, from taking every
 * delivery slot of the workers (docs/integrations.md, Webhooks).
 */

/** Answers -1 when the slot is taken, else how long ago (ms) the youngest holder took its slot. */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[4]))
if redis.call('ZSCORE', KEYS[1], ARGV[2]) then return -1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
  local youngest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
  return math.max(0, tonumber(ARGV[1]) - tonumber(youngest[2]))
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return -1`;

type WithSlots = RedisClient & { insptakeslot(key: string, now: number, holder: string, cap: number, staleMs: number): Promise<number> };

/**
 * Takes a slot of `key` for `holder` ({taken: true}; taking one already held is taken too), or
 * none is free: then `youngestMs` says how long the most recent holder has held its slot (the
 * holders of a receiver that answers at once are milliseconds old; those of one that hangs, seconds).
 */
export async function takeSlot(
  connection: RedisClient,
  key: string,
  holder: string,
  cap: number,
  staleMs: number,
): Promise<{ taken: true } | { taken: false; youngestMs: number }> {
  const r = connection as WithSlots;
  if (typeof r.insptakeslot !== "function") r.defineCommand("insptakeslot", { numberOfKeys: 1, lua: TAKE });
  const answer = await r.insptakeslot(key, Date.now(), holder, cap, staleMs);
  return answer < 0 ? { taken: true } : { taken: false, youngestMs: answer };
}

/** Gives `holder`'s slot of `key` back. */
export async function releaseSlot(connection: RedisClient, key: string, holder: string): Promise<void> {
  await connection.zrem(key, holder);
}
