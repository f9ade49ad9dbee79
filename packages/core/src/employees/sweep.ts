import { sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { jobIds, requeuePaged, type Queues } from "@insp/queue";

/** Housekeeping of sync requests, called by the worker's periodic tasks: lost jobs requeued, old requests deleted. */

/**
 * Items whose job was lost (Redis flushed or restarted empty, the API died between recording
 * a request and enqueueing it, a job failed for stalling before our code ran) would keep their
 * request processing forever. Pending items untouched for `olderThanMs` that are next in line
 * in their chain get their job back: added when missing, retried when failed; items with a live
 * job are left alone. Pages through all of them (`page` at a time, by id).
 */
export async function requeueStalledSyncItems(db: DbOrTx, queues: Queues, olderThanMs: number, page = 1000): Promise<number> {
  return requeuePaged(
    queues,
    "employee-sync",
    (after) =>
      db.execute<{ id: string; organization_id: string; request_id: string; idx: number }>(sql`
        select i.id, i.organization_id, i.request_id, i.idx from sync_request_items i
        where i.status = 'pending' and i.updated_at <= now() - ${olderThanMs} * interval '1 millisecond'
          and (${after}::uuid is null or i.id > ${after}::uuid)
          and not exists (select 1 from sync_request_items p where p.request_id = i.request_id and p.status = 'pending'
                          and p.chain_key = i.chain_key and p.idx < i.idx)
        order by i.id limit ${page}`),
    (i) => ({ jobId: jobIds.syncItem(i.request_id, i.idx), data: { organizationId: i.organization_id, requestId: i.request_id, itemId: i.id } }),
    page,
  );
}

/** Retention: completed sync requests (and their items, by cascade) older than `days`. */
export async function deleteOldSyncRequests(db: DbOrTx, days: number): Promise<number> {
  const rows = await db.execute<{ id: string }>(sql`
    delete from sync_requests where id in (
      select id from sync_requests where created_at < now() - make_interval(days => ${days})
        and not exists (select 1 from sync_request_items i where i.request_id = sync_requests.id and i.status = 'pending')
      limit 1000)
    returning id`);
  return rows.length;
}
