import { UnrecoverableError, enqueueMails, enqueueSyncItems, isLastAttempt, parseJobData, syncSignal, tickCountdown } from "@insp/queue";
import { runSyncItem } from "@insp/core";
import { withSpan } from "@insp/observability/tracing";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * employee-sync: one employee of a sync request (core runSyncItem: one transaction).
 * Then the next item with the same externalEmployeeId (request order) and the
 * welcome mails written in that transaction are enqueued, after commit, and the request's
 * countdown is ticked (the last tick wakes the API waiting for the request). A business
 * rule failure is final (UnrecoverableError); anything else is retried with backoff,
 * and the last attempt records a generic error so the request still completes.
 * Each run is counted by outcome (insp_sync_employees_total) and traced as one span around the
 * item's transaction, inside BullMQ's processing span. A job stopped past its timeout cancels the
 * transaction's statement (a lock it waits for, a slow read): see transactionInTwoTrips.
 */
export const employeeSyncProcessor: ProcessorFactory = (deps) => async (job, _token, signal) => {
  const data = parseJobData("employee-sync", job.data);
  const opts = { lastAttempt: isLastAttempt(job), ...(signal ? { signal } : {}) };
  const run = await withSpan("employee-sync item transaction", { "insp.queue": "employee-sync" }, () => runSyncItem(deps.db, data, opts)).catch(
    (err: unknown) => {
      deps.metrics.jobs.syncEmployees.inc({ outcome: "error" });
      throw err;
    },
  );
  deps.metrics.jobs.syncEmployees.inc({ outcome: run.kind });
  await Promise.all([
    run.successor ? enqueueSyncItems(deps.queues, data.organizationId, data.requestId, [run.successor]) : null,
    (run.kind === "done" || run.kind === "skipped") && run.outboxIds.length ? enqueueMails(deps.queues, data.organizationId, run.outboxIds) : null,
    // A skipped item was counted by the run that gave it its outcome. A tick that fails only
    // costs the waiting API its next poll of Postgres: never the job.
    run.kind === "skipped"
      ? null
      : tickCountdown(deps.queues, syncSignal(data.requestId)).catch((err: unknown) => deps.logger.debug({ err }, "sync countdown tick failed")),
  ]);
  if (run.kind === "rule-failed") throw new UnrecoverableError(run.message);
  if (run.kind === "gave-up") {
    deps.logger.error({ err: run.cause, requestId: data.requestId, itemId: data.itemId }, "employee sync item gave up after its last attempt");
    throw new UnrecoverableError("gave up after the last attempt");
  }
  return run.kind;
};
