import type { DbOrTx } from "@insp/db";
import { jobIds, requeuePaged, type Queues } from "@insp/queue";
import { stalePendingMail } from "./outbox.ts";

/**
 * Outbox rows still pending after `olderThanSeconds` whose job is gone (the worker
 * died between commit and enqueue, or Redis lost it) get a job again. A row with a
 * live job (waiting, delayed for a retry, active) is left alone; delivery locks the
 * row and skips sent ones, so a duplicate job never sends twice. Pages through all of them.
 */
export async function requeueStaleMail(db: DbOrTx, queues: Queues, olderThanSeconds: number, page = 1000): Promise<number> {
  return requeuePaged(
    queues,
    "mail",
    (after) => stalePendingMail(db, olderThanSeconds, page, after),
    (r) => ({ jobId: jobIds.mail(r.id), data: { organizationId: r.organizationId, outboxId: r.id } }),
    page,
  );
}
