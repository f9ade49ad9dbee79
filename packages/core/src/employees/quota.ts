import { sql } from "drizzle-orm";
import type { DbOrTx } from "@insp/db";
import { tooMany } from "../errors.ts";

/** The per-organization limit of queued sync employees (SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG), checked when a request is recorded. */

/** Seconds a request refused for a full queue is told to wait (Retry-After): the workers run thousands of employees meanwhile. */
const QUEUE_FULL_RETRY_AFTER_SECONDS = 10;

const count = (n: number) => n.toLocaleString("en-US");

/**
 * SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG: a request whose `adding` employees would take the
 * organization's pending items (queued or running, not yet done) past `max` is refused whole
 * with 429, inside the transaction that would record it, so nothing is written or enqueued.
 * The count and the insert after it run under a transaction-scoped advisory lock of the
 * organization, so two requests at once cannot both take the last places; the count reads the
 * partial index sync_request_items_org_pending_idx, never the organization's done items.
 */
export async function assertSyncQueueRoom(tx: DbOrTx, organizationId: string, adding: number, max: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sync-queue:${organizationId}`}, 0))`);
  const [row] = await tx.execute<{ n: number }>(
    sql`select count(*)::int as n from sync_request_items where organization_id = ${organizationId} and status = 'pending'`,
  );
  const queued = Number(row?.n ?? 0);
  if (queued + adding <= max) return;
  throw tooMany(
    `This organization has ${count(queued)} employees queued for sync; these ${count(adding)} would pass its limit of ${count(max)} (SYNC_MAX_QUEUED_EMPLOYEES_PER_ORG). Nothing was recorded: send the request again once some have been processed`,
    QUEUE_FULL_RETRY_AFTER_SECONDS,
  );
}
