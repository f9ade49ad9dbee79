import type postgres from "postgres";
import type { SqlTx } from "@insp/db";
import { lockExpression } from "./locks.ts";
import type { SyncEmployee } from "../types.ts";

/**
 * The statements a worker runs on one sync item besides the employee's read and write, in plain
 * SQL (postgres.js): load, lock, fail an item, find its chain's next one. Each takes a
 * transaction or the pool, so the same statement goes out inside the employee's transaction or,
 * on the failure paths, on its own.
 */
type Sql = SqlTx | postgres.Sql;

/*
 * PENDING. An item is looked up by its primary key, and its status is checked as "not done or
 * failed" (the only other statuses), never as `status = 'pending'`: that clause would let
 * Postgres answer the lookup from the partial index of pending items (sync_request_items_pending_idx)
 * by scanning it whole, and it does when its statistics say it is empty, which they do after
 * an ANALYZE between batches, while it still holds every pending item of every request and,
 * until a vacuum, an entry for every finished one. Measured on an organization of 100,000
 * employees: 900 buffers and 8 ms per item instead of 4 buffers (bench/README.md, issue 24).
 * The statements that should use that index name the request (and the chain) it is kept for.
 */

export interface ItemRow {
  id: string;
  organizationId: string;
  requestId: string;
  idx: number;
  chainKey: string | null;
  status: string;
  input: SyncEmployee | null;
}

export interface Successor {
  id: string;
  idx: number;
}

/** An item's columns as read (loadItem, and the worker's read: read-context.ts). */
export type ItemJson = { id: string; request_id: string; idx: number; chain_key: string | null; status: string; input: unknown };

export const toItemRow = (organizationId: string, r: ItemJson): ItemRow => ({
  id: r.id,
  organizationId,
  requestId: r.request_id,
  idx: r.idx,
  chainKey: r.chain_key,
  status: r.status,
  input: r.input as SyncEmployee | null,
});

export async function loadItem(sql: Sql, organizationId: string, requestId: string, itemId: string): Promise<ItemRow | null> {
  const [row] = await sql<ItemJson[]>`select id, request_id, idx, chain_key, status, input from sync_request_items
    where id = ${itemId} and request_id = ${requestId} and organization_id = ${organizationId}`;
  return row ? toItemRow(organizationId, row) : null;
}

/**
 * The first statement of the employee's transaction: the advisory locks of a pending item's
 * employee (its keys read from the item's input), nothing for an item that is done or unknown
 * (PENDING above: the status is checked after the lookup by primary key).
 * The statement's own snapshot is taken before the lock wait, so the item and the employee are
 * read by the next statement (read-context.ts readItemContext).
 */
export function lockItem(tx: SqlTx, organizationId: string, requestId: string, itemId: string) {
  return tx.unsafe(
    `select case when i.status = 'pending' and i.input is not null
        then ${lockExpression("i.organization_id::text", "(i.input->>'externalEmployeeId')", "(i.input->>'email')")} end as locked
    from sync_request_items i
    where i.id = $1 and i.request_id = $2 and i.organization_id = $3`,
    [itemId, requestId, organizationId],
    { prepare: true },
  );
}

/** The next pending item of the item's chain (same externalEmployeeId or e-mail), which runs after it. */
export function nextSameKey(sql: Sql, item: ItemRow) {
  return sql<Successor[]>`
    select id, idx from sync_request_items
    where request_id = ${item.requestId} and organization_id = ${item.organizationId} and status = 'pending' and chain_key = ${item.chainKey}::text and idx > ${item.idx}
    order by idx limit 1`;
}

/**
 * Records the item's error (only while it is pending) and answers its chain's next item. One
 * statement: the data-modifying CTE always runs; the select sees the other items. (A done
 * item's outcome is written with its employee: write-employee.ts.)
 */
export function failItem(sql: Sql, item: ItemRow, message: string) {
  return sql<Successor[]>`
    with failed as (update sync_request_items set status = 'failed', error = ${message}, updated_at = now()
      where id = ${item.id} and organization_id = ${item.organizationId} and status not in ('done', 'failed'))
    ${nextSameKey(sql, item)}`;
}

/** Pending mail_outbox rows of the user a done item's result names (see runSyncItem in ../run.ts, skipped). */
export function pendingMailOfItem(sql: Sql, item: ItemRow) {
  return sql<{ id: string }[]>`
    select m.id from mail_outbox m
    where m.organization_id = ${item.organizationId} and m.status = 'pending'
      and m.user_id = (select (i.result->>'userId')::uuid from sync_request_items i where i.id = ${item.id} and i.organization_id = ${item.organizationId})`;
}
