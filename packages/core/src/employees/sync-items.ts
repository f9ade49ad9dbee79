import type { Db } from "@insp/db";
import { EmployeeRuleError } from "./rules.ts";
import { contextQuery, planEmployee } from "./sync-employee.ts";
import { readEmployeeContext, toEmployeeContext, writeEmployee, type Tx } from "./store.ts";
import { finishItem, loadItem, lockAndLoadItem, nextSameKey, pendingMailOfItem, toItemRow, type ItemRow, type Successor } from "./sync-requests.ts";

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
 * Runs one item of a sync request: the employee and the item's outcome in ONE transaction of
 * four statements: the item with the employee's advisory locks, one read of everything the
 * rules need, one write of everything they decided with the item's outcome (its answer is the
 * successor), COMMIT. A business-rule failure rolls the employee back and records the error in
 * a separate statement. Any other error is thrown so the queue retries it with backoff, unless
 * this is the last attempt: then a generic error is recorded so the request still completes.
 * The caller enqueues the successor (the next item with the same externalEmployeeId or e-mail)
 * and the mail jobs, after commit.
 */
export async function runSyncItem(db: Db, job: Job, opts: { lastAttempt: boolean }): Promise<ItemRun> {
  let item: ItemRow | null = null;
  try {
    const run = await db.$client.begin(async (tx: Tx) => {
      const [row] = await lockAndLoadItem(tx, job.organizationId, job.requestId, job.itemId);
      if (!row) return null;
      const it = (item = toItemRow(job.organizationId, row));
      if (it.status !== "pending" || !it.input) return null;
      const e = it.input;
      const [read] = await readEmployeeContext(tx, contextQuery(job.organizationId, e));
      const { writes, outcome } = planEmployee(job, e, toEmployeeContext(read!));
      const [successor] = await writeEmployee(tx, { ...writes, item: { id: it.id, requestId: it.requestId, chainKey: it.chainKey, idx: it.idx, result: outcome.result } });
      return { kind: "done" as const, successor: successor ?? null, outboxIds: outcome.outboxIds };
    });
    if (run) return run;
    // Nothing to do: unknown item, or one that already has an outcome (its chain goes on).
    const seen = item as ItemRow | null;
    if (!seen) return { kind: "skipped", successor: null, outboxIds: [] };
    const [successor, outboxIds] = await Promise.all([nextSameKey(db, seen), seen.status === "done" ? pendingMailOfItem(db, seen) : []]);
    return { kind: "skipped", successor, outboxIds };
  } catch (err) {
    const failed = item ?? (await loadItem(db, job.organizationId, job.requestId, job.itemId));
    if (!failed) throw err;
    if (err instanceof EmployeeRuleError) return { kind: "rule-failed", successor: await finishItem(db, failed, { error: err.message }), message: err.message };
    if (opts.lastAttempt) return { kind: "gave-up", successor: await finishItem(db, failed, { error: GAVE_UP_MESSAGE }), cause: err };
    throw err;
  }
}
