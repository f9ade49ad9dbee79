import { jobId, type Queues } from "@insp/queue";

/**
 * Job ids of employee-sync items and mails are deterministic, so a repeated enqueue
 * (a re-run job chaining its successor, a sweep) collapses into the existing job.
 * Payloads carry ids only: the employee lives in sync_request_items, the mail in mail_outbox.
 */
export const syncItemJobId = (requestId: string, idx: number) => jobId(requestId, String(idx));
export const mailJobId = (outboxId: string) => jobId("mail", outboxId);

export async function enqueueSyncItems(queues: Queues, organizationId: string, requestId: string, items: { id: string; idx: number }[]): Promise<void> {
  await queues.enqueueBulk(
    "employee-sync",
    items.map((i) => ({ data: { organizationId, requestId, itemId: i.id }, opts: { jobId: syncItemJobId(requestId, i.idx) } })),
  );
}

export async function enqueueMails(queues: Queues, organizationId: string, outboxIds: string[]): Promise<void> {
  await queues.enqueueBulk(
    "mail",
    outboxIds.map((outboxId) => ({ data: { organizationId, outboxId }, opts: { jobId: mailJobId(outboxId) } })),
  );
}
