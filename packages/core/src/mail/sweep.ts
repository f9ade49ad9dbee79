import type { DbOrTx } from "@insp/db";
import { requeueMissing, type Queues } from "@insp/queue";
import { mailJobId } from "../employees/jobs.ts";
import { stalePendingMail } from "./outbox.ts";

/**
 * Outbox rows still pending after `olderThanSeconds` whose job is gone (the worker
 * died between commit and enqueue, or Redis lost it) get a job again. A row with a
 * live job (waiting, delayed for a retry, active) is left alone; delivery locks the
 * row and skips sent ones, so a duplicate job never sends twice.
 */
export async function requeueStaleMail(db: DbOrTx, queues: Queues, olderThanSeconds: number): Promise<number> {
  const rows = await stalePendingMail(db, olderThanSeconds);
  return requeueMissing(
    queues,
    "mail",
    rows.map((r) => ({ jobId: mailJobId(r.id), data: { organizationId: r.organizationId, outboxId: r.id } })),
  );
}
