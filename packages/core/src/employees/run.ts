import { secondTrip, transactionInTwoTrips, type Db, type SecondTrip, type SqlTx } from "@insp/db";
import { planEmployee, type EmployeeSyncOutcome, type SyncContext } from "./plan.ts";
import { EmployeeRuleError } from "./rules.ts";
import { failItem, lockItem, loadItem, nextSameKey, pendingMailOfItem, toItemRow, type ItemRow, type Successor } from "./sql/items.ts";
import { lockEmployee } from "./sql/locks.ts";
import { readEmployeeContext, readItemContext, toEmployeeContext } from "./sql/read-context.ts";
import { writeEmployee } from "./sql/write-employee.ts";
import type { SyncEmployee } from "./types.ts";

/**
 * One employee's transaction, the planner (plan.ts) between the read and the write
 * (sql/): runSyncItem for a worker's job (two round trips, the item's outcome in the same
 * write), syncEmployee inside a transaction the caller holds (dry runs, SCIM).
 */

/** The message of an item whose retries ran out (connection lost, deadlocks...). */
const GAVE_UP_MESSAGE = "Internal error while processing this employee; retry the request";

export type ItemRun =
  /** Processed now; its result is in sync_request_items. */
  | { kind: "done"; successor: Successor | null; outboxIds: string[] }
  /** A business rule failed: nothing of the employee was written, the error was recorded. Final. */
  | { kind: "rule-failed"; successor: Successor | null; message: string }
  /** Retries ran out: a generic error was recorded. */
  | { kind: "gave-up"; successor: Successor | null; cause: unknown }
  /**
   * Already has an outcome (a repeated job) or does not exist. `outboxIds`: mails of the
   * employee still pending, when its first run committed but never heard back (the connection
   * dropped during COMMIT), so their jobs were never enqueued.
   */
  | { kind: "skipped"; successor: Successor | null; outboxIds: string[] };

type Job = { organizationId: string; requestId: string; itemId: string };

/**
 * Runs one item of a sync request: the employee and the item's outcome in ONE transaction of
 * two round trips (@insp/db transactionInTwoTrips). The first write carries BEGIN, the
 * employee's advisory locks (keys read from the item) and one read of the item and everything
 * the rules need (keys read from the item too, so it needs no answer of the lock statement).
 * The rules decide (pure: planEmployee), and the second write carries one statement with
 * everything they decided and the item's outcome (its answer is the successor), and COMMIT.
 * A business-rule failure writes only the item's error, in the same place. Any other error is
 * thrown so the queue retries it with backoff, unless this is the last attempt: then a generic
 * error is recorded so the request still completes. The caller enqueues the successor (the next
 * item with the same externalEmployeeId or e-mail) and the mail jobs, after commit. `signal` (the
 * job's) cancels the transaction's statement running when it aborts; the transaction rolls back.
 */
export async function runSyncItem(db: Db, job: Job, opts: { lastAttempt: boolean; signal?: AbortSignal }): Promise<ItemRun> {
  let item: ItemRow | null = null;
  try {
    return await transactionInTwoTrips(
      db.$client,
      (tx) => [lockItem(tx, job.organizationId, job.requestId, job.itemId), readItemContext(tx, job.organizationId, job.requestId, job.itemId)],
      ([, [read]], tx): SecondTrip<ItemRun> => {
        item = read?.id ? toItemRow(job.organizationId, { ...read, id: read.id, request_id: read.request_id!, idx: read.idx! }) : null;
        if (!item || item.status !== "pending" || !item.input) return skip(tx, item);
        const it = item;
        try {
          const { writes, outcome } = planEmployee(job, it.input!, toEmployeeContext(read!));
          const write = writeEmployee(tx, {
            ...writes,
            item: { id: it.id, requestId: it.requestId, chainKey: it.chainKey, idx: it.idx, result: outcome.result },
          });
          return secondTrip([write], ([next]): ItemRun => ({ kind: "done", successor: next[0] ?? null, outboxIds: outcome.outboxIds }));
        } catch (err) {
          if (!(err instanceof EmployeeRuleError)) throw err;
          const message = err.message;
          return secondTrip([failItem(tx, it, message)], ([next]): ItemRun => ({ kind: "rule-failed", successor: next[0] ?? null, message }));
        }
      },
      opts.signal,
    );
  } catch (err) {
    if (!opts.lastAttempt) throw err;
    const failed = item ?? (await loadItem(db.$client, job.organizationId, job.requestId, job.itemId));
    if (!failed) throw err;
    const [successor] = await failItem(db.$client, failed, GAVE_UP_MESSAGE);
    return { kind: "gave-up", successor: successor ?? null, cause: err };
  }
}

/**
 * Nothing to do: an unknown item, or one that already has an outcome (a repeated job, or a run
 * of the same item that finished while this one waited for the locks). Its chain goes on, and
 * a done item's mails still pending are handed back (their jobs may never have been enqueued).
 */
function skip(tx: SqlTx, seen: ItemRow | null): SecondTrip<ItemRun> {
  if (!seen) return secondTrip([], (): ItemRun => ({ kind: "skipped", successor: null, outboxIds: [] }));
  if (seen.status !== "done") return secondTrip([nextSameKey(tx, seen)], ([next]): ItemRun => ({ kind: "skipped", successor: next[0] ?? null, outboxIds: [] }));
  return secondTrip([nextSameKey(tx, seen), pendingMailOfItem(tx, seen)], ([next, mails]): ItemRun => ({
    kind: "skipped",
    successor: next[0] ?? null,
    outboxIds: mails.map((m) => m.id),
  }));
}

/**
 * One employee inside the caller's transaction, for dry runs and SCIM: locks, one read, the
 * rules, one write. Serialized per (organization, externalEmployeeId) and per e-mail with
 * advisory locks taken first, in sorted order, so concurrent batches and replicas neither
 * duplicate employees or users nor deadlock. A business-rule failure throws EmployeeRuleError;
 * the caller rolls back. (Workers run the same steps with the item's lock and outcome: runSyncItem.)
 */
export async function syncEmployee(tx: SqlTx, ctx: SyncContext, e: SyncEmployee): Promise<EmployeeSyncOutcome> {
  await lockEmployee(tx, ctx.organizationId, e.externalEmployeeId, e.email);
  const [row] = await readEmployeeContext(tx, ctx.organizationId, e);
  const { writes, outcome } = planEmployee(ctx, e, toEmployeeContext(row!));
  await writeEmployee(tx, { ...writes, item: null });
  return outcome;
}
