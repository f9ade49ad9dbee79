import type { Queue } from "bullmq";
import type { RedisClient } from "./connection.ts";

/**
 * Fair turns across organizations on a shared queue, with BullMQ's own job priorities (its
 * open-source edition has no groups): a queue is served lowest priority number first, and in
 * order of arrival among equal numbers.
 *
 * Each job gets a tag, its organization's turn: one more than the organization's last tag, and
 * never below the turn the queue is serving now (the lowest priority still waiting). So an
 * organization that starts sending while another has 15,000 jobs waiting gets turns right behind
 * the head of the queue, its jobs alternate with the other's instead of waiting for all of them,
 * and each organization's own jobs keep their order (its tags only grow). This is start-time fair
 * queuing with the waiting head as the virtual clock; nothing has to be counted down when a job
 * ends, so nothing drifts when a worker dies.
 *
 * Tags live in one hash per queue, `<queue>:fair`: each organization's last tag, and `#top`, the
 * highest tag handed out. When nothing waits, an organization starts at `#top` + 1, level with
 * every other (a delayed job, a retry or a webhook attempt due later, still carries its tag and
 * runs ahead of newer work when it comes back); once nothing is delayed either, or `#top` has
 * passed a million, the hash is emptied and turns count from 1 again, so numbers stay small.
 * BullMQ allows priorities up to 2^21; a queue that never empties through two million turns gets
 * that number for every job past it (first in, first out among them) until it empties, which is
 * the old behaviour, not a loss (docs/operations.md, Fair queues).
 *
 * Taking turns and adding the jobs are two round trips: a job added between the two by another
 * process can have a turn a little out of order. Fairness is approximate there; nothing else
 * depends on it (a chain's next item is enqueued when the one before it is done).
 */
export const MAX_PRIORITY = 2_097_152;

/**
 * KEYS[1] the queue's prioritized set (score: priority * 2^32 + arrival), KEYS[2] the fair hash,
 * KEYS[3] the delayed set. ARGV[1] organization, ARGV[2] how many jobs. Answers the first tag;
 * the jobs take it and the ones after it.
 */
const TAKE_TURNS = `
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local base
if #head > 0 then
  base = math.floor(tonumber(head[2]) / 4294967296)
else
  local top = tonumber(redis.call('HGET', KEYS[2], '#top') or '0')
  if redis.call('ZCARD', KEYS[3]) == 0 or top > 1048576 then
    redis.call('DEL', KEYS[2])
    base = 0
  else
    base = top
  end
end
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if last < base then last = base end
local upto = last + tonumber(ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], upto)
if upto > tonumber(redis.call('HGET', KEYS[2], '#top') or '0') then redis.call('HSET', KEYS[2], '#top', upto) end
return last + 1`;

type WithTurns = RedisClient & { insptaketurns(prioritized: string, fair: string, delayed: string, organizationId: string, count: number): Promise<number> };

/** The hash of a queue's organizations' last tags (beside BullMQ's keys, in the same hash slot). */
export const fairKey = (queue: Pick<Queue, "keys">): string => `${queue.keys.prioritized!.slice(0, -":prioritized".length)}:fair`;

/**
 * Priorities for `count` new jobs of `organizationId` on `queue`, in order (one script, O(log n)
 * on the waiting set).
 */
export async function takeTurns(connection: RedisClient, queue: Pick<Queue, "keys">, organizationId: string, count: number): Promise<number[]> {
  const r = connection as WithTurns;
  if (typeof r.insptaketurns !== "function") r.defineCommand("insptaketurns", { numberOfKeys: 3, lua: TAKE_TURNS });
  const first = await r.insptaketurns(queue.keys.prioritized!, fairKey(queue), queue.keys.delayed!, organizationId, count);
  return Array.from({ length: count }, (_, i) => Math.min(first + i, MAX_PRIORITY));
}
