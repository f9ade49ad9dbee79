import { and, asc, eq, sql } from "drizzle-orm";
import { isoText, type DbOrTx } from "@insp/db";
import { syncRequestItems, syncRequests } from "@insp/db/schema";
import { recordChange } from "../changes/index.ts";
import type { SyncEmployee, SyncError, SyncResult } from "./types.ts";

/**
 * Sync requests and their items as rows (the Drizzle builder, and Drizzle's sql for set-based
 * statements): recording them, completing them, reading back progress and results. The source
 * of truth for progress and results: workers write each item's outcome in the employee's
 * transaction (sql/write-employee.ts); the API and the status endpoint read them back in
 * request order.
 */

export interface NewItem {
  idx: number;
  externalEmployeeId: string | null;
  /** Items of one chain run in request order (rules.ts chainKeys). */
  chainKey?: string;
  /** The validated employee. */
  input?: SyncEmployee;
  /** Known at once: validation errors, or every outcome of a dry run. Without it the item is pending. */
  outcome?: { result: SyncResult } | { error: string };
}

export async function createSyncRequest(
  tx: DbOrTx,
  r: {
    id?: string;
    organizationId: string;
    clientId: string | null;
    syncBatchId: string | null;
    dryRun: boolean;
    items: NewItem[];
    httpRequestId?: string | null;
  },
): Promise<{ requestId: string; items: { id: string; idx: number }[] }> {
  const done = r.items.every((i) => i.outcome);
  const [req] = await tx
    .insert(syncRequests)
    .values({
      ...(r.id ? { id: r.id } : {}),
      organizationId: r.organizationId,
      clientId: r.clientId,
      syncBatchId: r.syncBatchId,
      dryRun: r.dryRun,
      requestId: r.httpRequestId ?? null,
      total: r.items.length,
      status: done ? "completed" : "processing",
      completedAt: done ? sql`now()` : null,
    })
    .returning({ id: syncRequests.id });
  if (done) await recordChange(tx, { organizationId: r.organizationId, resourceType: "sync_request", resourceId: req!.id, change: "completed" });
  if (r.items.length === 0) return { requestId: req!.id, items: [] };
  const items: { id: string; idx: number }[] = [];
  // A session's deactivations may hold a whole organization: 5,000 rows per statement keeps each
  // message (the inputs as one JSON array) and its answer to a few megabytes.
  for (let at = 0; at < r.items.length; at += 5000) items.push(...(await insertItems(tx, r.organizationId, req!.id, r.items.slice(at, at + 5000))));
  return { requestId: req!.id, items };
}

/**
 * The items in one statement of seven array parameters (unnest): as 500 rows of VALUES it was
 * 4,500 parameters for Postgres to bind and for Drizzle to build (bench/README.md, issue 24).
 */
async function insertItems(tx: DbOrTx, organizationId: string, requestId: string, batch: NewItem[]): Promise<{ id: string; idx: number }[]> {
  const col = <T>(f: (i: NewItem) => T) => sql.param(batch.map(f));
  return tx.execute<{ id: string; idx: number }>(sql`
    insert into sync_request_items (organization_id, request_id, idx, external_employee_id, chain_key, input, status, result, error)
    select ${organizationId}, ${requestId}, x.idx, x.ext, x.chain, x.input::jsonb, x.status, x.result::jsonb, x.error
    from unnest(${col((i) => i.idx)}::int[], ${col((i) => i.externalEmployeeId)}::text[], ${col((i) => i.chainKey ?? null)}::text[],
      ${col((i) => (i.input ? JSON.stringify(i.input) : null))}::text[], ${col((i) => (!i.outcome ? "pending" : "result" in i.outcome ? "done" : "failed"))}::text[],
      ${col((i) => (i.outcome && "result" in i.outcome ? JSON.stringify(i.outcome.result) : null))}::text[],
      ${col((i) => (i.outcome && "error" in i.outcome ? i.outcome.error : null))}::text[]) as x(idx, ext, chain, input, status, result, error)
    returning id, idx`);
}

export async function deleteSyncRequest(db: DbOrTx, organizationId: string, requestId: string): Promise<void> {
  await db.delete(syncRequests).where(and(eq(syncRequests.id, requestId), eq(syncRequests.organizationId, organizationId)));
}

/** True when no item of the request is pending (partial index sync_request_items_pending_idx). */
export async function isSyncRequestDone(db: DbOrTx, organizationId: string, requestId: string): Promise<boolean> {
  const rows = await db.execute(
    sql`select 1 from sync_request_items where request_id = ${requestId} and organization_id = ${organizationId} and status = 'pending' limit 1`,
  );
  return rows.length === 0;
}

/**
 * Marks the request completed once no item is pending, with the time its last item
 * finished. Readers (the waiting API, the status endpoint) do it, which keeps one
 * query per employee off the workers' path; the items are the truth either way.
 */
async function markCompletedIfDone(db: DbOrTx, organizationId: string, requestId: string): Promise<void> {
  // The change-log row (sync.request.completed) in the same statement: written once, by whoever completes it.
  await db.execute(sql`
    with done as (
      update sync_requests set status = 'completed',
        completed_at = coalesce((select max(i.updated_at) from sync_request_items i where i.request_id = ${requestId} and i.organization_id = ${organizationId}), now())
      where id = ${requestId} and organization_id = ${organizationId} and status = 'processing'
        and not exists (select 1 from sync_request_items i where i.request_id = ${requestId} and i.organization_id = ${organizationId} and i.status = 'pending')
      returning id, organization_id)
    insert into change_events (organization_id, resource_type, resource_id, change) select organization_id, 'sync_request', id, 'completed' from done`);
}

/**
 * Completes every request of every organization whose items are all done, so
 * sync.request.completed is sent even when nobody waits for or polls the request (the worker's
 * periodic task; partial index sync_requests_processing_idx). Returns how many.
 */
export async function completeFinishedSyncRequests(db: DbOrTx): Promise<number> {
  const rows = await db.execute(sql`
    with done as (
      update sync_requests r set status = 'completed',
        completed_at = coalesce((select max(i.updated_at) from sync_request_items i where i.request_id = r.id and i.organization_id = r.organization_id), now())
      where r.status = 'processing'
        and not exists (select 1 from sync_request_items i where i.request_id = r.id and i.organization_id = r.organization_id and i.status = 'pending')
      returning r.id, r.organization_id)
    insert into change_events (organization_id, resource_type, resource_id, change) select organization_id, 'sync_request', id, 'completed' from done
    returning seq`);
  return rows.length;
}

export interface SyncRequestSummary {
  id: string;
  requestId: string;
  syncBatchId: string | null;
  dryRun: boolean;
  status: "processing" | "completed";
  total: number;
  created: number;
  updated: number;
  errors: number;
  createdAt: string;
  completedAt: string | null;
}

/** Counts of the given requests (sync.request.completed's data), in no particular order. */
export async function syncRequestSummaries(db: DbOrTx, organizationId: string, ids: string[]): Promise<SyncRequestSummary[]> {
  if (ids.length === 0) return [];
  const rows = await db.execute<{
    id: string;
    sync_batch_id: string | null;
    dry_run: boolean;
    status: "processing" | "completed";
    total: number;
    created: number;
    updated: number;
    errors: number;
    created_at: string;
    completed_at: string | null;
  }>(sql`
    select r.id, r.sync_batch_id, r.dry_run, r.status, r.total,
      count(*) filter (where i.status = 'done' and i.result->>'status' = 'CREATED')::int as created,
      count(*) filter (where i.status = 'done' and i.result->>'status' = 'UPDATED')::int as updated,
      count(*) filter (where i.status = 'failed')::int as errors,
      ${sql.raw(isoText("r.created_at"))} as created_at,
      ${sql.raw(isoText("r.completed_at"))} as completed_at
    from sync_requests r left join sync_request_items i on i.request_id = r.id and i.organization_id = r.organization_id
    where r.organization_id = ${organizationId} and r.id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
    group by r.id`);
  return rows.map((r) => ({
    id: r.id,
    requestId: r.id,
    syncBatchId: r.sync_batch_id,
    dryRun: r.dry_run,
    status: r.status,
    total: r.total,
    created: r.created,
    updated: r.updated,
    errors: r.errors,
    createdAt: r.created_at,
    completedAt: r.completed_at,
  }));
}

/** `syncBatchId` is echoed only when the request had one (spec: "Echo of the request value, if provided"). */
export interface SyncResponseBody {
  requestId: string;
  syncBatchId?: string;
  results: SyncResult[];
  errors: SyncError[];
}

export interface SyncStatusBody {
  requestId: string;
  syncBatchId?: string;
  status: "processing" | "completed";
  dryRun: boolean;
  total: number;
  processed: number;
  createdAt: string;
  completedAt: string | null;
  results?: SyncResult[];
  errors?: SyncError[];
}

/**
 * Progress of a request of the organization, with results and errors once completed; null when
 * unknown. While it runs, only the items' counts are read (a client polling a batch of 500 would
 * otherwise read every item's result on every poll).
 */
export async function loadSyncStatus(db: DbOrTx, organizationId: string, requestId: string): Promise<SyncStatusBody | null> {
  const [req] = await db
    .select()
    .from(syncRequests)
    .where(and(eq(syncRequests.id, requestId), eq(syncRequests.organizationId, organizationId)))
    .limit(1);
  if (!req) return null;
  const body = (processed: number, completedAt: Date | null): SyncStatusBody => ({
    requestId: req.id,
    ...batchId(req.syncBatchId),
    status: processed === req.total ? "completed" : "processing",
    dryRun: req.dryRun,
    total: req.total,
    processed,
    createdAt: req.createdAt.toISOString(),
    completedAt: completedAt?.toISOString() ?? null,
  });
  if (req.status !== "completed") {
    const [{ pending } = { pending: 0 }] = await db.execute<{ pending: number }>(
      sql`select count(*)::int as pending from sync_request_items where request_id = ${requestId} and organization_id = ${organizationId} and status = 'pending'`,
    );
    if (pending > 0) return body(req.total - pending, null);
  }
  const items = await db
    .select({
      idx: syncRequestItems.idx,
      status: syncRequestItems.status,
      result: syncRequestItems.result,
      error: syncRequestItems.error,
      externalEmployeeId: syncRequestItems.externalEmployeeId,
    })
    .from(syncRequestItems)
    .where(and(eq(syncRequestItems.requestId, requestId), eq(syncRequestItems.organizationId, organizationId)))
    .orderBy(asc(syncRequestItems.idx));
  let completedAt = req.completedAt;
  if (!completedAt) {
    await markCompletedIfDone(db, organizationId, requestId);
    [{ completedAt = null } = {}] = await db
      .select({ completedAt: syncRequests.completedAt })
      .from(syncRequests)
      .where(and(eq(syncRequests.id, requestId), eq(syncRequests.organizationId, organizationId)));
  }
  return {
    ...body(items.length, completedAt),
    results: items.filter((i) => i.status === "done").map((i) => orderedResult(i.result as SyncResult)),
    errors: items.filter((i) => i.status === "failed").map((i) => ({ externalEmployeeId: i.externalEmployeeId, message: i.error ?? "" })),
  };
}

/** jsonb does not keep key order: fields in the spec's order again. */
const orderedResult = (r: SyncResult): SyncResult => ({
  externalEmployeeId: r.externalEmployeeId,
  status: r.status,
  employeeId: r.employeeId,
  userId: r.userId,
  warnings: r.warnings,
});

const batchId = (id: string | null | undefined): { syncBatchId?: string } => (id === null || id === undefined ? {} : { syncBatchId: id });

/** The synchronous answer: `{requestId, syncBatchId?, results, errors}`, in request order. */
export const toSyncResponse = (s: Pick<SyncStatusBody, "requestId" | "syncBatchId" | "results" | "errors">): SyncResponseBody => ({
  requestId: s.requestId,
  ...batchId(s.syncBatchId),
  results: (s.results ?? []).map(orderedResult),
  errors: (s.errors ?? []).map((e) => ({ externalEmployeeId: e.externalEmployeeId, message: e.message })),
});
