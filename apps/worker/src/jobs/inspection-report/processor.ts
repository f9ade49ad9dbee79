import { randomUUID } from "node:crypto";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { UnrecoverableError, isLastAttempt, parseJobData } from "@insp/queue";
import { classifyReportFailure, failReport, finishReport, loadReportContent, reportStorageKey, startReport } from "@insp/core";
import type { ProcessorFactory } from "../../deps.ts";

/**
 * inspection-report: renders one report row into a PDF (render.ts) in the store's spool folder,
 * moves it into the media store, records SUCCEEDED with its size and pages and deletes the
 * inspection's older reports. Transient failures are retried per the queue policy; a permanent
 * one, or the last attempt, records FAILED with a safe sentence so the waiting request answers.
 * A job stopped past REPORT_JOB_TIMEOUT_SECONDS (its signal) stores nothing after the step it was in.
 */
export const inspectionReportProcessor: ProcessorFactory = (deps) => async (job, _token, signal) => {
  const { organizationId, reportId } = parseJobData("inspection-report", job.data);
  const report = await startReport(deps.db, organizationId, reportId);
  if (!report) return { skipped: true }; // finished by an earlier run of this job, or deleted with its inspection
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
    return { pages, byteSize };
  } catch (err) {
    const { permanent, message } = classifyReportFailure(err);
    const lastAttempt = isLastAttempt(job);
    deps.logger.error({ err, reportId, organizationId, attempt: job.attemptsMade + 1, permanent }, "inspection report failed");
    if (!permanent && !lastAttempt) throw err;
    await failReport(deps.db, organizationId, reportId, message);
    throw new UnrecoverableError(message);
  } finally {
    await rm(file, { force: true });
  }
};
