import type { Db } from "@insp/db";
import { EmployeeRuleError } from "./rules.ts";
import { syncEmployee } from "./sync-employee.ts";
import { finishItem, loadItem, lockAndLoadItem, nextSameKey, pendingMailOfItem, type ItemRow, type Successor } from "./sync-requests.ts";

/** The message of an item whose retries ran out (connection lost, deadlocks...). */
export const GAVE_UP_MESSAGE = "Internal error while processing this employee; retry the request";

export type ItemRun =
  /** Processed now; its result is in sync_request_items. */
  | { kind: "done"; successor: Successor | null; outboxIds: string[] }
  /** A business rule failed: the employee's changes were rolled back and the error recorded. Final. */
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
 * Runs one item of a sync request: the employee and the item's outcome in ONE
 * transaction (its first statement loads the item and takes the employee's locks).
 * A business-rule failure rolls the employee back and records the error in a
 * separate statement. Any other error is thrown so the queue retries it with backoff,
 * unless this is the last attempt: then a generic error is recorded so the request
 * still completes. The caller enqueues the successor (the next item with the same
 * externalEmployeeId) and the mail jobs, after commit.
 */
export async function runSyncItem(db: Db, job: Job, opts: { lastAttempt: boolean }): Promise<ItemRun> {
  let item: ItemRow | null = null;
  try {
    return await db.transaction(async (tx): Promise<ItemRun> => {
      item = await lockAndLoadItem(tx, job.organizationId, job.requestId, job.itemId);
      if (!item) return { kind: "skipped", successor: null, outboxIds: [] };
      if (item.status !== "pending" || !item.input) {
        const [successor, outboxIds] = await Promise.all([nextSameKey(tx, item), item.status === "done" ? pendingMailOfItem(tx, item) : []]);
        return { kind: "skipped", successor, outboxIds };
      }
      const it = item;
      let successor: Successor | null = null;
      const outcome = await syncEmployee(tx, job, it.input!, {
        locked: true,
        alsoWrite: (result) => finishItem(tx, it, { result }).then((s) => void (successor = s)),
      });
      return { kind: "done", successor, outboxIds: outcome.outboxIds };
    });
  } catch (err) {
    const failed = item ?? (await loadItem(db, job.organizationId, job.requestId, job.itemId));
    if (!failed) throw err;
    if (err instanceof EmployeeRuleError) return { kind: "rule-failed", successor: await finishItem(db, failed, { error: err.message }), message: err.message };
    if (opts.lastAttempt) return { kind: "gave-up", successor: await finishItem(db, failed, { error: GAVE_UP_MESSAGE }), cause: err };
    throw err;
  }
}
