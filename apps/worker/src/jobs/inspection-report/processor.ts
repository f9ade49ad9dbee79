import { randomUUID } from "node:crypto";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { UnrecoverableError, isLastAttempt, parseJobData, reportSignal, tickCountdown } from "@insp/queue";
import { classifyReportFailure, failReport, finishReport, loadReportContent, reportStorageKey, startReport } from "@insp/core";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * inspection-report: renders one report row into a PDF (render.ts) in the store's spool folder,
 * moves it into the media store, records SUCCEEDED with its size and pages and deletes the
 * inspection's older reports. Transient failures are retried per the queue policy; a permanent
 * one, or the last attempt, records FAILED with a safe sentence. Once the row is settled, the job
 * ticks the report's countdown (a count of 1), which wakes the requests waiting for it. A job
 * stopped past REPORT_JOB_TIMEOUT_SECONDS (its signal) stores nothing after the step it was in.
 */
export const inspectionReportProcessor: ProcessorFactory = (deps) => async (job, _token, signal) => {
  const { organizationId, reportId } = parseJobData("inspection-report", job.data);
  // A tick that fails only costs the waiting requests their next poll of Postgres: never the job.
  const signalDone = () =>
    tickCountdown(deps.queues, reportSignal(reportId)).catch((err: unknown) => deps.logger.debug({ err, reportId }, "report countdown tick failed"));
  const report = await startReport(deps.db, organizationId, reportId);
  if (!report) {
    // Finished by an earlier run of this job, or deleted with its inspection: a request that
    // started the countdown again meanwhile has nothing more to wait for.
    await signalDone();
    return { skipped: true };
  }
  await mkdir(deps.media.spoolDir, { recursive: true });
  const file = path.join(deps.media.spoolDir, `${randomUUID()}.report.pdf`);
  const storageKey = reportStorageKey(organizationId, reportId);
  try {
    const content = await loadReportContent(deps.db, organizationId, report.inspectionId, report.cacheKey);
    // pdfkit and sharp are loaded by the first report, not by every worker start.
    const { renderReport } = await import("./render.ts");
    signal?.throwIfAborted();
    const { pages } = await renderReport(content, deps.media, file);
    signal?.throwIfAborted();
    const byteSize = (await stat(file)).size;
    await deps.media.putFile(storageKey, file, byteSize);
    if (!(await finishReport(deps.db, deps.media, organizationId, reportId, { storageKey, byteSize, pages }))) await deps.media.delete([storageKey]);
    await signalDone();
    return { pages, byteSize };
  } catch (err) {
    const { permanent, message } = classifyReportFailure(err);
    const lastAttempt = isLastAttempt(job);
    deps.logger.error({ err, reportId, organizationId, attempt: job.attemptsMade + 1, permanent }, "inspection report failed");
    if (!permanent && !lastAttempt) throw err;
    await failReport(deps.db, organizationId, reportId, message);
    await signalDone();
    throw new UnrecoverableError(message);
  } finally {
    await rm(file, { force: true });
  }
};
