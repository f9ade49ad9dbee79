import { jobId } from "./contract.ts";
import type { Queues } from "./queues.ts";

/**
 * Job ids and the enqueue helpers of every queue, beside their contract (contract.ts). Ids are
 * deterministic, so a repeated enqueue (a re-run job chaining its successor, a sweep, a replay)
 * collapses into the existing job; payloads carry ids only (the work lives in Postgres).
 */
export const jobIds = {
  /** One employee of a sync request: its request and its index in the request. */
  syncItem: (requestId: string, idx: number) => jobId(requestId, String(idx)),
  mail: (outboxId: string) => jobId("mail", outboxId),
  import: (importId: string) => jobId("import", importId),
  /** One report row: a second request for the same report (same cache key) collapses into its job. */
  report: (reportId: string) => jobId("report", reportId),
  /** One export row: one job per export. */
  export: (exportId: string) => jobId("export", exportId),
  /** One attempt of a webhook delivery: each attempt is its own (delayed) job. */
  webhook: (deliveryId: string, attempt: number) => jobId("wh", deliveryId, String(attempt)),
};

/** The first job of each given item of a sync request (a worker enqueues the rest of its chain). */
export async function enqueueSyncItems(queues: Queues, organizationId: string, requestId: string, items: { id: string; idx: number }[]): Promise<void> {
  await queues.enqueueBulk(
    "employee-sync",
    items.map((i) => ({ data: { organizationId, requestId, itemId: i.id }, opts: { jobId: jobIds.syncItem(requestId, i.idx) } })),
  );
}

export async function enqueueMails(queues: Queues, organizationId: string, outboxIds: string[]): Promise<void> {
  await queues.enqueueBulk(
    "mail",
    outboxIds.map((outboxId) => ({ data: { organizationId, outboxId }, opts: { jobId: jobIds.mail(outboxId) } })),
  );
}

export async function enqueueImport(queues: Queues, organizationId: string, importId: string): Promise<void> {
  await queues.enqueue("inspection-import", { organizationId, importId }, { jobId: jobIds.import(importId) });
}

export async function enqueueReport(queues: Queues, organizationId: string, reportId: string): Promise<void> {
  await queues.enqueue("inspection-report", { organizationId, reportId }, { jobId: jobIds.report(reportId) });
}

export async function enqueueExport(queues: Queues, organizationId: string, exportId: string): Promise<void> {
  await queues.enqueue("inspection-export", { organizationId, exportId }, { jobId: jobIds.export(exportId) });
}

/** The first attempt of new webhook deliveries (after their transaction committed). */
export async function enqueueDeliveries(queues: Queues, deliveries: { id: string; organizationId: string }[]): Promise<void> {
  await queues.enqueueBulk(
    "webhook",
    deliveries.map((d) => ({ data: { organizationId: d.organizationId, deliveryId: d.id, attempt: 0 }, opts: { jobId: jobIds.webhook(d.id, 0) } })),
  );
}

/** A webhook delivery's next attempt, delayed until it is due. */
export async function enqueueRetry(queues: Queues, organizationId: string, deliveryId: string, attempt: number, at: Date): Promise<void> {
  await queues.enqueue(
    "webhook",
    { organizationId, deliveryId, attempt },
    { jobId: jobIds.webhook(deliveryId, attempt), delay: Math.max(0, at.getTime() - Date.now()) },
  );
}
