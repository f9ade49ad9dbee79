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
 * Tags live in one hash per queue, `<queue>:fair`: an organization's last tag, and `#gen`. When
 * nothing waits, the next enqueue starts a new generation: the hash is emptied and turns count
 * from 1 again, so numbers stay small. BullMQ allows priorities up to 2^21; a queue that never
 * empties through two million turns gets that number for every job past it (first in, first out
 * among them) until it empties, which is the old behaviour, not a loss (docs/operations.md,
 * Fair queues).
 *
 * A job added with a delay (a webhook retry) carries the tag it got when it was added.
 */
export const MAX_PRIORITY = 2_097_152;

/**
 * KEYS[1] the queue's prioritized set (score: priority * 2^32 + arrival), KEYS[2] the fair hash.
 * ARGV[1] organization, ARGV[2] how many jobs. Answers the first tag; the jobs take it and the
 * ones after it.
 */
const TAKE_TURNS = `
local head = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local base = 0
if #head == 0 then
  redis.call('DEL', KEYS[2])
else
  base = math.floor(tonumber(head[2]) / 4294967296)
end
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[1]) or '0')
if last < base then last = base end
redis.call('HSET', KEYS[2], ARGV[1], last + tonumber(ARGV[2]))
return last + 1`;

type WithTurns = RedisClient & { insptaketurns(prioritized: string, fair: string, organizationId: string, count: number): Promise<number> };

/** The hash of a queue's organizations' last tags (beside BullMQ's keys, in the same hash slot). */
export const fairKey = (queue: Pick<Queue, "keys">): string => `${queue.keys.prioritized!.slice(0, -":prioritized".length)}:fair`;

/**
 * Priorities for `count` new jobs of `organizationId` on `queue`, in order (one script, O(log n)
 * on the waiting set).
 */
export async function takeTurns(connection: RedisClient, queue: Pick<Queue, "keys">, organizationId: string, count: number): Promise<number[]> {
  const r = connection as WithTurns;
  if (typeof r.insptaketurns !== "function") r.defineCommand("insptaketurns", { numberOfKeys: 2, lua: TAKE_TURNS });
  const first = await r.insptaketurns(queue.keys.prioritized!, fairKey(queue), organizationId, count);
  return Array.from({ length: count }, (_, i) => Math.min(first + i, MAX_PRIORITY));
}
