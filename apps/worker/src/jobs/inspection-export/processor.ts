import { UnrecoverableError, isLastAttempt, parseJobData } from "@insp/queue";
import { runExport } from "@insp/core";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * inspection-export: writes one CSV or XLSX export (core runExport) and puts it in the media store.
 * A worker that dies mid-export leaves the job to BullMQ's stalled-job recovery: it runs again and
 * starts the file over. A failure is retried per the queue policy; the last attempt records FAILED.
 * A run past EXPORT_JOB_TIMEOUT_SECONDS stops at its next page (the job's signal) and fails the same way.
 */
export const inspectionExportProcessor: ProcessorFactory = (deps) => async (job, _token, signal) => {
  const { organizationId, exportId } = parseJobData("inspection-export", job.data);
  try {
    const result = await runExport(
      { db: deps.db, store: deps.media, retentionHours: deps.env.EXPORT_RETENTION_HOURS, ...(signal ? { signal } : {}) },
      organizationId,
      exportId,
    );
    deps.logger.info({ exportId, organizationId, ...result }, "inspection export finished");
    return result;
  } catch (err) {
    deps.logger.error({ err, exportId, organizationId, attempt: job.attemptsMade + 1 }, "inspection export failed");
    if (!isLastAttempt(job)) throw err;
    const message = "The export could not be written; request it again";
    await deps.db.$client`
      update inspection_exports set status = 'FAILED', error = ${message}, finished_at = now()
      where organization_id = ${organizationId} and id = ${exportId} and status = 'RUNNING'`;
    throw new UnrecoverableError(message);
  }
};
